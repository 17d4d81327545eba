/**
 * The authorization endpoint (/oidc/{env}/auth): the checks in the order that decides where an
 * error goes, then a verification session with channel `oidc`.
 * Rules:
 * - client_id, then where the parameters come from (./request-source.ts: the request itself, a
 *   signed request object (JAR) or a pushed request (PAR request_uri), whose parameters are then
 *   the request), then redirect_uri: failures are shown on the error page (never redirected); no
 *   error is ever redirected before both are validated (RFC 6749 §4.1.2.1: the OP would be an
 *   open redirector), and an error marked not redirectable stays on the page at any step;
 * - then request objects, response_type/mode, scope, PKCE (required when the app says so:
 *   pkceRequired, on for new apps), id_token_hint, prompt, max_age, acr_values, claims, provider:
 *   failures go back to the redirect_uri as RFC 6749 errors with state and iss, in the request's
 *   response mode (query, or form_post: ./form-post.ts);
 * - a client whose policy requires PAR (lib/oidc/profile.ts: requirePar, fapi2) is refused
 *   without a pushed request (invalid_request, redirected); PKCE is required by policy.requirePkce;
 *   the code's DPoP key (`dpop_jkt`, RFC 9449 §10; or the pushed request's) is stored with the
 *   request and carried to the code at the resume;
 * - without `provider` the end-user picks one on the picker page (which comes back here with it);
 * - an app with IDV_OIDC_UNTOUCHED_LIMIT sessions of the last hour that no end-user acted on gets
 *   temporarily_unavailable instead of a new one (./untouched.ts);
 * - the session and its OidcAuthorizationRequest are written in one transaction, so a failure
 *   leaves neither; the session's creation events wait for the end-user's first action
 *   (lib/verifications/create.ts), so anonymous repetition wakes no webhook;
 * - the answer is bound to this browser (lib/hosted/binding.ts): the request stores a random
 *   resume token and the hashes of two secrets — the cookie set here (path
 *   {issuer path}/resume/{resumeToken}), which the OP's resume requires, and the one-time
 *   hand-off the browser carries to the hosted page (/verify/{id}/bind?h=…), which binds it there.
 */
import { connectionAvailabilities } from "../../connections/runtime";
import type { Db } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { ApiError } from "../../errors";
import { newId } from "../../ids";
import type { TProviderDefinition } from "../../providers/catalog";
import {
  bindingCookie,
  bindingHash,
  handoffUrl,
  newBindingSecret,
  OIDC_BINDING_COOKIE,
} from "../../hosted/binding";
import { createVerification } from "../../verifications/create";
import { sessionTtlSeconds } from "../../verifications/settings";
import { insertAuthorizationRequest } from "../store/provider";
import { AuthorizationError, errorAnswer } from "./authorization-error";
import { checkAcrValues } from "./check-acr-values";
import { checkClient, type TClientApp } from "./check-client";
import { checkPkce } from "./check-pkce";
import { checkClaims, checkIdTokenHint, checkMaxAge, checkPrompt, checkUiLocales } from "./check-prompt";
import { checkProvider, selectableProviders, type TAvailableProviders } from "./check-provider";
import { checkRedirectUri } from "./check-redirect-uri";
import { checkResponseType } from "./check-response-type";
import { checkScope } from "./check-scope";
import { checkUnsupportedParams } from "./check-unsupported";
import { requestedResponseMode, type TAuthorizationAnswer } from "./form-post";
import { single, type TAuthorizationParams } from "./params";
import { checkUntouchedCap } from "./untouched";
import { clientPolicy } from "../profile";
import {
  checkDpopJkt,
  RedirectedRequestError,
  requestSource,
  consumePushedSource,
  type TRequestSource,
} from "./request-source";

export type TAuthorizeOutcome =
  | { kind: "error_page"; error: AuthorizationError }
  /** `cookie`: the Set-Cookie value that binds the sign-in to this browser */
  | { kind: "redirect"; url: string; cookie?: string }
  /** an answer to the client at its validated redirect_uri, in the request's response mode */
  | { kind: "answer"; answer: TAuthorizationAnswer }
  /** `locale`: the request's ui_locales tag, for the picker's language */
  | {
      kind: "picker";
      app: TClientApp;
      providers: TProviderDefinition[];
      locale?: string;
      /** the picker's query when not the request's own (a pushed request: client_id, request_uri) */
      search?: Record<string, string>;
    };

export interface TAuthorizeInput {
  environment: TEnvironment;
  params: TAuthorizationParams;
  /** the issuer for this client on the requested host (lib/oidc/provider/issuer.ts) */
  issuerFor: (clientId: string) => Promise<string>;
}

export async function authorize(db: Db, input: TAuthorizeInput): Promise<TAuthorizeOutcome> {
  const { environment } = input;
  let app: TClientApp;
  let issuer: string;
  let source: TRequestSource;
  let redirectUri: string;
  try {
    app = await checkClient(db, environment, input.params);
    issuer = await input.issuerFor(app.id);
    // the request's own parameters, its request object's or its pushed request's
    source = await requestSource(db, { environment, app, issuer, params: input.params });
    redirectUri = checkRedirectUri(app.redirectUris, source.params);
  } catch (err) {
    if (err instanceof RedirectedRequestError)
      return { kind: "answer", answer: errorAnswer(err.target, err) };
    if (err instanceof AuthorizationError) return { kind: "error_page", error: err };
    throw err;
  }
  const params = source.params;
  const policy = clientPolicy(app);
  // state is echoed even on errors; a repeated state is itself an error, echoed as neither
  const state = params.repeated.has("state") ? undefined : params.values.state;
  try {
    // a client that must use PAR (policy.requirePar, always under fapi2) sends nothing else here
    if (policy.requirePar && source.via !== "par")
      throw new AuthorizationError(
        "invalid_request",
        "this client must use pushed authorization requests (PAR)",
      );
    checkUnsupportedParams(params);
    checkResponseType(params);
    const scope = checkScope(params);
    const codeChallenge = checkPkce(params, policy.requirePkce);
    // the DPoP key the code is bound to (RFC 9449 §10): the pushed request's or dpop_jkt
    const dpopJkt = source.dpopJkt ?? checkDpopJkt(params);
    // a hint that is not one of our ID tokens for this client is refused, before prompt=none
    await checkIdTokenHint(db, { environment, issuer, clientId: app.id }, params);
    const prompt = checkPrompt(params);
    const maxAge = checkMaxAge(params);
    const { acrValues, minLoa } = checkAcrValues(params);
    const { uiLocales, locale } = checkUiLocales(params);
    checkClaims(params);
    single(params, "state");
    const nonce = single(params, "nonce");
    const available = await availableProviders(db, environment, app);
    const provider = checkProvider(app, params, available, minLoa);
    if (!provider) {
      const providers = selectableProviders(app, available, minLoa);
      if (providers.length === 0) {
        throw new AuthorizationError("access_denied", "No identity provider is available for this client");
      }
      return {
        kind: "picker",
        app,
        providers,
        ...(locale ? { locale } : {}),
        ...(source.pickerSearch ? { search: source.pickerSearch } : {}),
      };
    }
    // an app's sign-ins nobody continues are capped: a flood of anonymous requests stops here
    await checkUntouchedCap(db, app.id);
    // a pushed request starts one sign-in only
    await consumePushedSource(db, source, new Date());
    let verificationId: string;
    try {
      const created = await createVerification(
        db,
        { kind: "app", clientId: app.id, workspaceId: app.workspaceId, environment },
        { providerId: provider.id, ...(locale ? { locale } : {}) },
        { channel: "oidc" },
      );
      verificationId = created.verificationId;
    } catch (err) {
      // the app's setup (no default workflow, a workflow that refuses the provider) is not the
      // end-user's doing: tell the client, do not fail with a 500
      if (err instanceof ApiError && err.status < 500) {
        throw new AuthorizationError("access_denied", `The verification could not start: ${err.message}`);
      }
      throw err;
    }
    const now = new Date();
    const resumeToken = newBindingSecret();
    const bindingSecret = newBindingSecret();
    const handoff = newBindingSecret();
    await insertAuthorizationRequest(db, {
      id: newId("oar"),
      verificationId,
      resumeToken,
      browserBindingHash: bindingHash(bindingSecret),
      handoffHash: bindingHash(handoff),
      appId: app.id,
      environment,
      redirectUri,
      issuer,
      scope,
      state: state ?? null,
      nonce: nonce ?? null,
      codeChallenge: codeChallenge ?? null,
      responseMode: params.values.response_mode ?? null,
      acrValues: acrValues ?? null,
      minLoa: minLoa ?? null,
      maxAge: maxAge ?? null,
      prompt: prompt ?? null,
      uiLocales: uiLocales ?? null,
      dpopJkt: dpopJkt ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + sessionTtlSeconds() * 1000),
    });
    // the cookie goes to the issuer's own resume path (its custom domain's path is "/resume/…")
    const resumePath = `${new URL(issuer).pathname.replace(/\/+$/, "")}/resume/${resumeToken}`;
    return {
      kind: "redirect",
      url: handoffUrl(verificationId, handoff),
      cookie: bindingCookie(OIDC_BINDING_COOKIE, bindingSecret, resumePath),
    };
  } catch (err) {
    if (err instanceof AuthorizationError) {
      if (!err.redirectable) return { kind: "error_page", error: err };
      const answer = errorAnswer({ redirectUri, state, issuer }, err, requestedResponseMode(params));
      return { kind: "answer", answer };
    }
    throw err;
  }
}

/** The app's activated providers whose sessions can start in `environment` (the honest catalog). */
export async function availableProviders(
  db: Db,
  environment: TEnvironment,
  app: TClientApp,
): Promise<TAvailableProviders> {
  const ids = app.providers.filter((p) => p.enabled && p.status === "activated").map((p) => p.providerId);
  const availability = await connectionAvailabilities(environment, ids, db);
  return new Set(ids.filter((id) => availability.get(id)!.available));
}
