/**
 * The authorization endpoint (/oidc/{env}/auth): the checks in the order that decides where an
 * error goes, then a verification session with channel `oidc`.
 * Rules:
 * - client_id, then redirect_uri: failures are shown on the error page (never redirected);
 * - then request objects, response_type/mode, scope, PKCE, prompt, max_age, acr_values,
 *   provider: failures go back to the redirect_uri as RFC 6749 errors with state and iss;
 * - without `provider` the end-user picks one on the picker page (which comes back here with it);
 * - the session and its OidcAuthorizationRequest are written in one transaction, so a failure
 *   leaves neither; the browser then goes to the hosted page /verify/{verificationId}.
 */
import type { Tx } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { ApiError } from "../../http/errors";
import { newId } from "../../ids";
import type { TProviderDefinition } from "../../providers/catalog";
import { createVerification, hostedPageUrl } from "../../verifications/service";
import { sessionTtlSeconds } from "../../verifications/settings";
import { AuthorizationError, errorRedirectUrl } from "./authorization-error";
import { checkAcrValues } from "./check-acr-values";
import { checkClient, type TClientApp } from "./check-client";
import { checkPkce } from "./check-pkce";
import { checkMaxAge, checkPrompt, checkUiLocales } from "./check-prompt";
import { checkProvider, selectableProviders } from "./check-provider";
import { checkRedirectUri } from "./check-redirect-uri";
import { checkResponseType } from "./check-response-type";
import { checkScope } from "./check-scope";
import { checkUnsupportedParams } from "./check-unsupported";
import { single, type TAuthorizationParams } from "./params";

export type TAuthorizeOutcome =
  | { kind: "error_page"; error: AuthorizationError }
  | { kind: "redirect"; url: string }
  | { kind: "picker"; app: TClientApp; providers: TProviderDefinition[] };

export interface TAuthorizeInput {
  environment: TEnvironment;
  params: TAuthorizationParams;
  /** the issuer for this client on the requested host (lib/oidc/provider/issuer.ts) */
  issuerFor: (clientId: string) => Promise<string>;
}

export async function authorize(db: Tx, input: TAuthorizeInput): Promise<TAuthorizeOutcome> {
  const { params, environment } = input;
  let app: TClientApp;
  let redirectUri: string;
  try {
    app = await checkClient(db, environment, params);
    redirectUri = checkRedirectUri(app.redirectUris, params);
  } catch (err) {
    if (err instanceof AuthorizationError) return { kind: "error_page", error: err };
    throw err;
  }
  const issuer = await input.issuerFor(app.id);
  // state is echoed even on errors; a repeated state is itself an error, echoed as neither
  const state = params.repeated.has("state") ? undefined : params.values.state;
  try {
    checkUnsupportedParams(params);
    checkResponseType(params);
    const scope = checkScope(params);
    const codeChallenge = checkPkce(params);
    const prompt = checkPrompt(params);
    const maxAge = checkMaxAge(params);
    const { acrValues, minLoa } = checkAcrValues(params);
    const { uiLocales, locale } = checkUiLocales(params);
    single(params, "state");
    const nonce = single(params, "nonce");
    const provider = checkProvider(app, params, minLoa);
    if (!provider) {
      const providers = selectableProviders(app, minLoa);
      if (providers.length === 0) {
        throw new AuthorizationError("access_denied", "No identity provider is available for this client");
      }
      return { kind: "picker", app, providers };
    }
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
    await db.oidcAuthorizationRequest.create({
      data: {
        id: newId("oar"),
        verificationId,
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
        createdAt: now,
        expiresAt: new Date(now.getTime() + sessionTtlSeconds() * 1000),
      },
    });
    return { kind: "redirect", url: hostedPageUrl(verificationId) };
  } catch (err) {
    if (err instanceof AuthorizationError) {
      return { kind: "redirect", url: errorRedirectUrl({ redirectUri, state, issuer }, err) };
    }
    throw err;
  }
}
