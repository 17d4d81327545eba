/**
 * PKCE (RFC 7636), S256 only: the plain method offers no protection once the authorization
 * request is observed, so it is never accepted.
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** RFC 7636 §4.1: 43–128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: base64url of a SHA-256 digest, unpadded. */
export const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function isValidCodeVerifier(verifier: string): boolean {
  return CODE_VERIFIER_PATTERN.test(verifier);
}

export function isValidCodeChallenge(challenge: string): boolean {
  return CODE_CHALLENGE_PATTERN.test(challenge);
}

/** Whether `verifier` is well formed and hashes to `challenge` (compared in constant time). */
export function verifyCodeVerifier(challenge: string, verifier: string): boolean {
  if (!isValidCodeVerifier(verifier) || !isValidCodeChallenge(challenge)) return false;
  const expected = Buffer.from(challenge, "ascii");
  const actual = Buffer.from(s256Challenge(verifier), "ascii");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
