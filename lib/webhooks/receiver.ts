/**
 * Receiving our webhooks: a small, dependency-free reference for integrators (copy it as is;
 * only node:crypto is used). docs/webhooks.md shows it in use.
 * Rules it enforces (spec, Events §Signature):
 * - `X-Service-Signature: t=<unix-seconds>,v1=<hex>`; v1 is the lowercase hex HMAC-SHA256, keyed
 *   with the whole `whsec_…` secret, of `<t>.` followed by the exact raw body bytes — verify
 *   before parsing, on the bytes as received;
 * - signatures are compared in constant time; any one matching v1 value is accepted;
 * - `t` further than the tolerance (300 s) from now is refused, so a captured request cannot be
 *   replayed later;
 * - a missing header is refused: once a secret exists, every delivery is signed.
 * Deliveries are at-least-once: dedupe on `eventId`. Answer 2xx quickly and do the work later;
 * anything else (including a redirect or taking more than 10 s) counts as a failed attempt.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const WEBHOOK_SIGNATURE_HEADER = "X-Service-Signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type TWebhookVerificationFailure =
  | "missing_signature"
  | "malformed_signature"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch"
  | "invalid_payload";

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: TWebhookVerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** The envelope every event shares; `data` depends on the event type. */
export interface TWebhookEvent {
  event: string;
  eventId: string;
  timestamp: string;
  apiVersion: string;
  clientId: string;
  data: Record<string, unknown>;
}

export interface TVerifyOptions {
  /** maximum distance between `t` and now, in seconds (default 300) */
  toleranceSeconds?: number;
  /** the current time (tests) */
  now?: Date;
}

function parseHeader(header: string): { t: number; v1: string[] } {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^\d+$/.test(value)) t = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) v1.push(value);
  }
  if (t === undefined || v1.length === 0)
    throw new WebhookVerificationError(
      "malformed_signature",
      "Malformed signature header: expected t=<unix-seconds>,v1=<64 hex characters>",
    );
  return { t, v1 };
}

/**
 * Verifies a delivery and returns the parsed event. Throws WebhookVerificationError (with a
 * `reason`) when the header is missing or malformed, the timestamp is outside the tolerance, the
 * signature does not match `secret`, or the body is not an event.
 */
export function verifyWebhook(
  rawBody: string | Buffer,
  signatureHeader: string | null | undefined,
  secret: string,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() }: TVerifyOptions = {},
): TWebhookEvent {
  if (!signatureHeader)
    throw new WebhookVerificationError("missing_signature", `Missing ${WEBHOOK_SIGNATURE_HEADER} header`);
  const { t, v1 } = parseHeader(signatureHeader);
  const age = Math.abs(Math.floor(now.getTime() / 1000) - t);
  if (age > toleranceSeconds)
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `Signature timestamp is ${age} s away from now (tolerance ${toleranceSeconds} s)`,
    );
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  const expected = createHmac("sha256", secret).update(`${t}.`, "utf8").update(body).digest();
  const matches = v1.some((candidate) => timingSafeEqual(expected, Buffer.from(candidate, "hex")));
  if (!matches) throw new WebhookVerificationError("signature_mismatch", "Signature does not match");
  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("invalid_payload", "Body is not JSON");
  }
  const e = event as Partial<TWebhookEvent> | null;
  if (!e || typeof e !== "object" || typeof e.event !== "string" || typeof e.eventId !== "string")
    throw new WebhookVerificationError("invalid_payload", "Body is not a webhook event");
  return e as TWebhookEvent;
}
