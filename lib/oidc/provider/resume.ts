/**
 * The return of an OIDC session ({issuer}/resume/{resumeToken}): the OP answers its client.
 * Rules:
 * - the address carries a random resume token, not the verification id (which the QR code shows);
 *   a value that is not a token (ver_%00 …) is unknown without a query;
 * - only the browser that sent the authorization request and ran its hosted page is answered: it
 *   holds the cookie /auth set and carries the hosted page's proof (?p=, lib/hosted/binding.ts);
 *   without either, or with other values, the error page (400), nothing redirected and nothing
 *   consumed — whoever learnt the address gets neither code nor state;
 * - on a custom OIDC domain only that app's sign-ins are known (404 otherwise);
 * - answered once: the request is marked completed with a conditional update, so a reload or a
 *   second tab never mints a second code; later visits see the error page;
 * - only ended sessions are answered; an unfinished one sends the browser back to its page;
 * - the client must still exist and still have the redirect_uri registered, else the error page;
 * - completed with at least the requested minimum LoA → a code bound to the client,
 *   redirect_uri, PKCE challenge, nonce, scope and DPoP key (dpop_jkt), valid CODE_TTL_SECONDS or
 *   less when the client's policy says so (fapi2: 60 s), sent with state and iss (RFC 9207);
 * - a lower LoA, failed, cancelled or expired → access_denied with error_description;
 * - both in the request's response mode (query or form_post, ./form-post.ts).
 */
import type { Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import { matchesBinding } from "../../hosted/binding";
import { isTerminal } from "../../verifications/state-machine";
import { hostedPageUrl } from "../../verifications/read";
import { issueCode } from "../codes";
import { clientPolicy } from "../profile";
import { CODE_TTL_SECONDS } from "../settings";
import {
  claimAuthorizationRequest,
  readRequestByResumeToken,
  readResumedApp,
  readResumedVerification,
} from "../store/provider";
import { AuthorizationError, errorAnswer, pageError } from "./authorization-error";
import { storedResponseMode, type TAuthorizationAnswer } from "./form-post";
import { errorPage, storedLocale, type TOpErrorPage } from "./page";

export type TResumeOutcome =
  | TOpErrorPage
  /** an unfinished session: back to its hosted page */
  | { kind: "redirect"; url: string }
  /** the answer to the client, in the request's response mode (./form-post.ts) */
  | { kind: "answer"; answer: TAuthorizationAnswer };

/** 256 random bits, base64url: the form of every resume token (lib/hosted/binding.ts). */
export const RESUME_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const ENDED: Record<string, string> = {
  failed: "The identity verification failed",
  cancelled: "The end-user cancelled the identity verification",
  expired: "The identity verification expired before it was completed",
};

export interface TResumeInput {
  environment: TEnvironment;
  resumeToken: string;
  /** the value of the browser's binding cookie, if it sent one */
  bindingSecret: string | undefined;
  /** the hosted page's proof (?p=), if any */
  proof: string | undefined;
  /** false for an app this host does not serve (another app's custom domain) */
  servesApp: (appId: string) => boolean;
  issuerFor: (clientId: string) => Promise<string>;
}

export async function resumeAuthorization(db: Db, input: TResumeInput): Promise<TResumeOutcome> {
  const { environment } = input;
  // a browser that is not the sign-in's own sees its own language (Accept-Language), never the
  // request's: nothing about the sign-in is revealed to it
  const unknown = errorPage(pageError("This sign-in request is unknown"), 400, { reason: "unknown" });
  if (!RESUME_TOKEN.test(input.resumeToken)) return unknown;
  const request = await readRequestByResumeToken(db, input.resumeToken);
  if (!request || request.environment !== environment || !request.verificationId) return unknown;
  if (!input.servesApp(request.appId)) {
    return errorPage(pageError("This sign-in is not known at this address"), 404, { reason: "not_here" });
  }
  if (
    !matchesBinding(request.browserBindingHash, input.bindingSecret) ||
    !matchesBinding(request.resumeProofHash, input.proof)
  ) {
    return errorPage(
      pageError(
        "This sign-in was started in another browser. Go back to the application and sign in again from this browser.",
      ),
      400,
      { reason: "other_browser" },
    );
  }
  const v = await readResumedVerification(db, request.verificationId);
  if (!v) return unknown;
  if (!isTerminal(v.status)) return { kind: "redirect", url: hostedPageUrl(v.id) };
  // from here on the browser is the sign-in's own: its page speaks the request's language
  const locale = storedLocale(request.uiLocales);
  const own = locale ? { locale } : {};
  const app = await readResumedApp(db, request.appId);
  if (!app || app.deletedAt || !app.redirectUris.includes(request.redirectUri)) {
    return errorPage(pageError("The application of this sign-in is no longer available"), 400, {
      reason: "app_gone",
      ...own,
    });
  }
  if (!(await claimAuthorizationRequest(db, request.id, new Date()))) {
    return errorPage(pageError("This sign-in has already been answered"), 400, {
      reason: "answered",
      ...own,
    });
  }
  // the issuer the client started with (its custom OIDC domain or the default one)
  const issuer = request.issuer ?? (await input.issuerFor(app.id));
  const target = { redirectUri: request.redirectUri, state: request.state, issuer };
  const mode = storedResponseMode(request.responseMode);
  if (v.status !== "completed") {
    const reason = ENDED[v.status] ?? "The identity verification did not complete";
    return {
      kind: "answer",
      answer: errorAnswer(
        target,
        new AuthorizationError("access_denied", v.statusReason ? `${reason} (${v.statusReason})` : reason),
        mode,
      ),
    };
  }
  if (request.minLoa !== null && (v.loa ?? 0) < request.minLoa) {
    return {
      kind: "answer",
      answer: errorAnswer(
        target,
        new AuthorizationError(
          "access_denied",
          `The verification reached level of assurance ${v.loa ?? 0}, below the requested ${request.minLoa}`,
        ),
        mode,
      ),
    };
  }
  const code = await issueCode(db, {
    appId: app.id,
    environment,
    surface: "op",
    verificationId: v.id,
    redirectUri: request.redirectUri,
    ...(request.codeChallenge ? { codeChallenge: request.codeChallenge } : {}),
    ...(request.nonce ? { nonce: request.nonce } : {}),
    scope: request.scope,
    // the DPoP key of the request (dpop_jkt, RFC 9449 §10) and the policy's code lifetime ceiling
    ...(request.dpopJkt ? { dpopJkt: request.dpopJkt } : {}),
    ttlSeconds: Math.min(CODE_TTL_SECONDS, clientPolicy(app).maxCodeTtlSeconds ?? CODE_TTL_SECONDS),
  });
  const params: [string, string][] = [["code", code]];
  if (request.state) params.push(["state", request.state]);
  params.push(["iss", issuer]);
  return { kind: "answer", answer: { redirectUri: request.redirectUri, params, mode } };
}
