/**
 * Webhook signatures (spec, Events §Signature): `X-Service-Signature: t=<unix-seconds>,v1=<hex>`
 * where v1 is the lowercase hex HMAC-SHA256, keyed with the webhook secret, of `<t>.<raw body>`.
 * Receivers compare in constant time and reject timestamps more than 300 s away from now.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "X-Service-Signature";
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signPayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(body, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** What a receiver does; used by our tests' webhook receiver and offered to integrators as reference. */
export function verifySignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  now = Math.floor(Date.now() / 1000),
  tolerance = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  const parts = new Map(header.split(",").map((p) => p.trim().split("=", 2) as [string, string]));
  const t = Number(parts.get("t"));
  const v1 = parts.get("v1");
  if (!Number.isInteger(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(now - t) > tolerance) return false;
  const expected = signPayload(secret, body, t).split("v1=")[1]!;
  return timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(v1, "hex"));
}
