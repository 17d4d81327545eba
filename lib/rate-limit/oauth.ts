/**
 * The 429 of the OAuth surfaces that have no OAuthError of their own (/userinfo): an RFC 6749
 * style body `{"error":"slow_down","error_description":"…"}` with Retry-After, never cached.
 */
import { tooManyFailures } from "./credentials";

export function oauthRateLimited(seconds: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: "slow_down", error_description: tooManyFailures(seconds) }), {
    status: 429,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      Pragma: "no-cache",
      "Retry-After": String(seconds),
      ...headers,
    },
  });
}
