/**
 * The return of an OIDC session (/oidc/{env}/resume/{verificationId}): the OP answers its client.
 * Rules:
 * - answered once: the request is marked completed with a conditional update, so a reload or a
 *   second tab never mints a second code; later visits see the error page;
 * - only ended sessions are answered; an unfinished one sends the browser back to its page;
 * - the client must still exist and still have the redirect_uri registered, else the error page;
 * - completed with at least the requested minimum LoA → a code bound to the client,
 *   redirect_uri, PKCE challenge, nonce and scope, sent with state and iss (RFC 9207);
 * - a lower LoA, failed, cancelled or expired → access_denied with error_description.
 */
import type { Tx } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { isTerminal } from "../../verifications/states";
import { hostedPageUrl } from "../../verifications/service";
import { issueAuthorizationCode } from "../codes";
import { AuthorizationError, errorRedirectUrl, pageError } from "./authorization-error";

export type TResumeOutcome =
  { kind: "error_page"; error: AuthorizationError } | { kind: "redirect"; url: string };

const ENDED: Record<string, string> = {
  failed: "The identity verification failed",
  cancelled: "The end-user cancelled the identity verification",
  expired: "The identity verification expired before it was completed",
};

export async function resumeAuthorization(
  db: Tx,
  environment: TEnvironment,
  verificationId: string,
  issuerFor: (clientId: string) => Promise<string>,
): Promise<TResumeOutcome> {
  const request = await db.oidcAuthorizationRequest.findUnique({ where: { verificationId } });
  const v = request ? await db.verification.findUnique({ where: { id: verificationId } }) : null;
  if (!request || !v || request.environment !== environment) {
    return { kind: "error_page", error: pageError("This sign-in request is unknown") };
  }
  if (!isTerminal(v.status)) return { kind: "redirect", url: hostedPageUrl(v.id) };
  const app = await db.app.findUnique({ where: { id: request.appId } });
  if (!app || app.deletedAt || !app.redirectUris.includes(request.redirectUri)) {
    return { kind: "error_page", error: pageError("The application of this sign-in is no longer available") };
  }
  const claimed = await db.oidcAuthorizationRequest.updateMany({
    where: { id: request.id, completedAt: null },
    data: { completedAt: new Date() },
  });
  if (claimed.count !== 1) {
    return { kind: "error_page", error: pageError("This sign-in has already been answered") };
  }
  // the issuer the client started with (its custom OIDC domain or the default one)
  const issuer = request.issuer ?? (await issuerFor(app.id));
  const target = { redirectUri: request.redirectUri, state: request.state, issuer };
  if (v.status !== "completed") {
    const reason = ENDED[v.status] ?? "The identity verification did not complete";
    return {
      kind: "redirect",
      url: errorRedirectUrl(
        target,
        new AuthorizationError("access_denied", v.statusReason ? `${reason} (${v.statusReason})` : reason),
      ),
    };
  }
  if (request.minLoa !== null && (v.loa ?? 0) < request.minLoa) {
    return {
      kind: "redirect",
      url: errorRedirectUrl(
        target,
        new AuthorizationError(
          "access_denied",
          `The verification reached level of assurance ${v.loa ?? 0}, below the requested ${request.minLoa}`,
        ),
      ),
    };
  }
  const code = await issueAuthorizationCode(db, {
    appId: app.id,
    environment,
    surface: "op",
    verificationId: v.id,
    redirectUri: request.redirectUri,
    ...(request.codeChallenge ? { codeChallenge: request.codeChallenge } : {}),
    ...(request.nonce ? { nonce: request.nonce } : {}),
    scope: request.scope,
  });
  const url = new URL(request.redirectUri);
  url.searchParams.set("code", code);
  if (request.state) url.searchParams.set("state", request.state);
  url.searchParams.set("iss", issuer);
  return { kind: "redirect", url: url.toString() };
}
