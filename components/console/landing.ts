/**
 * Where a signed-in person lands (a plain module: the sign-in page's server component and the
 * sign-in form both use it).
 */

/** A callback URL from the query, kept only when it is a console or back-office path (no open redirect). */
export function safeCallback(
  raw: string | null | undefined,
  fallback = "/console/sandbox/dashboard",
): string {
  if (raw && (raw.startsWith("/console/") || raw.startsWith("/operator/")) && !raw.startsWith("//"))
    return raw;
  return fallback;
}

/** Where a fresh session lands without a callback: operators in the back-office, others in the console. */
export function homeFor(claims: { operatorExpiresAt?: number }): string {
  return claims.operatorExpiresAt !== undefined
    ? "/operator/sandbox/activations"
    : "/console/sandbox/dashboard";
}
