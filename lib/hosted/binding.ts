/**
 * Sign-in returns bound to the browser (issue 12): a session's return — the OpenID Provider's
 * code and the client's state, or the REST return with its code — goes only to one browser.
 * Rules:
 * - the hosted pages know that browser by a secret in an HttpOnly, SameSite=Lax cookie scoped to
 *   the session's own path (/verify/{id}), Secure when PUBLIC_URL is https; only its SHA-256 is
 *   stored (verifications.browser_binding_hash);
 * - REST sessions: the first browser that opens the hosted page while the session is open gets it
 *   (the page sends it through /verify/{id}/bind once);
 * - OpenID Provider sessions: only the browser that sent the authorization request, through the
 *   one-time hand-off /auth put in its redirect (/verify/{id}/bind?h=…); /auth also set that
 *   browser the cookie the OP's resume requires (lib/oidc/provider/resume.ts). The resume also
 *   requires a proof derived from the hosted cookie (?p=…, in `next` only): so it takes a browser
 *   that holds both — one that forwarded its hand-off to a victim cannot resume the victim's
 *   sign-in, nor can the victim's browser, which lacks the /auth cookie;
 * - only the bound browser is told where to go once the session has ended (status `next`, the
 *   page's own redirect); other browsers — a second device, or whoever read the id off the QR
 *   code — see the status and the final page, never a code or the client's state;
 * - an OpenID Provider session's hosted page does not run in another browser at all (a victim
 *   lured to it would otherwise sign the attacker in); the phone of a QR flow only authenticates;
 * - secrets are 256 random bits; comparisons are of SHA-256 hashes.
 */
import { randomBytes } from "node:crypto";
import { config, publicUrl } from "../config";
import { sha256Hex } from "../crypto/hash";
import type { Db } from "../db/kysely";
import { ApiError } from "../errors";
import { nextUrlOf } from "../verifications/return";
import { sessionTtlSeconds } from "../verifications/settings";
import { isTerminal } from "../verifications/state-machine";
import {
  claimBrowserBinding,
  consumeHandoff,
  readBinding,
  readOidcRequestOf,
  setBrowserBinding,
} from "../verifications/store/binding";
import { readCookie } from "./upstream-cookie";

/** The hosted pages' cookie (path /verify/{id}). */
export const HOSTED_BINDING_COOKIE = "idv_browser";
/** The OpenID Provider's cookie (path {issuer path}/resume/{resumeToken}). */
export const OIDC_BINDING_COOKIE = "idv_signin";

/** A new secret: 256 random bits, base64url (43 characters). */
export function newBindingSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function bindingHash(secret: string): string {
  return sha256Hex(secret);
}

/** True when `secret` is the one whose hash was stored. */
export function matchesBinding(storedHash: string | null | undefined, secret: string | undefined): boolean {
  return !!storedHash && !!secret && secret.length <= 128 && bindingHash(secret) === storedHash;
}

/** The resume proof of the browser holding hosted secret `secret` (derived: the same on every poll). */
export function resumeProof(secret: string): string {
  return sha256Hex(`resume-proof:${secret}`);
}

/** Lives as long as a session may, plus an hour to come back from an ended one. */
export function bindingMaxAgeSeconds(): number {
  return sessionTtlSeconds() + 3600;
}

/** A Set-Cookie value for a binding cookie: HttpOnly, SameSite=Lax, path-scoped, Secure on https. */
export function bindingCookie(name: string, secret: string, path: string): string {
  const secure = config().https ? "; Secure" : "";
  return `${name}=${secret}; Path=${path}; Max-Age=${bindingMaxAgeSeconds()}; HttpOnly; SameSite=Lax${secure}`;
}

export function hostedBindingCookie(verificationId: string, secret: string): string {
  return bindingCookie(HOSTED_BINDING_COOKIE, secret, `/verify/${verificationId}`);
}

/** The hosted binding secret a request carries (the Cookie header). */
export function hostedSecretFrom(request: Request): string | undefined {
  return readCookie(request.headers.get("cookie"), HOSTED_BINDING_COOKIE);
}

export interface THostedBrowser {
  /** the session was started by the OpenID Provider */
  oidc: boolean;
  /** this browser holds the session's binding */
  bound: boolean;
  /** nobody holds it yet and this browser may take it (REST sessions that are still open) */
  claimable: boolean;
  /** where this browser goes now (bound browsers of ended sessions only; null: the final page) */
  next: string | null;
}

/** What a browser with `secret` (its hosted cookie) may see of a session; null: unknown session. */
export async function hostedBrowser(
  db: Db,
  verificationId: string,
  secret: string | undefined,
): Promise<THostedBrowser | null> {
  const v = await readBinding(db, verificationId);
  if (!v) return null;
  const bound = matchesBinding(v.browserBindingHash, secret);
  return {
    oidc: v.viaOidcProvider,
    bound,
    claimable: !v.viaOidcProvider && v.browserBindingHash === null && !isTerminal(v.status),
    next: bound && isTerminal(v.status) ? await nextUrlOf(db, v, resumeProof(secret!)) : null,
  };
}

/**
 * /verify/{id}/bind: binds this browser when it may have the session — an OpenID Provider session
 * with the hand-off `handoff` (usable once), a REST session that nobody holds and that is still
 * open. Returns the new cookie secret, or null (nothing changes; the page shows what it may).
 */
export async function bindHostedBrowser(
  db: Db,
  verificationId: string,
  handoff: string | undefined,
): Promise<string | null> {
  const v = await readBinding(db, verificationId);
  if (!v) return null;
  const secret = newBindingSecret();
  if (v.viaOidcProvider) {
    const request = await readOidcRequestOf(db, verificationId);
    if (!request?.handoffHash || !handoff || handoff.length > 128) return null;
    if (!(await consumeHandoff(db, request.id, bindingHash(handoff), bindingHash(resumeProof(secret)))))
      return null;
    // gone since it was read (a concurrent delete): a missing row answers 404 RESOURCE_NOT_FOUND
    if (!(await setBrowserBinding(db, verificationId, bindingHash(secret))))
      throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
    return secret;
  }
  if (v.browserBindingHash !== null || isTerminal(v.status)) return null;
  return (await claimBrowserBinding(db, verificationId, bindingHash(secret))) ? secret : null;
}

/** The OpenID Provider's hand-off address to the hosted page (on PUBLIC_URL). */
export function handoffUrl(verificationId: string, handoff: string): string {
  return `${publicUrl()}/verify/${verificationId}/bind?h=${encodeURIComponent(handoff)}`;
}
