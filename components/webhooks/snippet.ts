/**
 * The signature check offered on the Webhooks tab (Node.js, node:crypto only). It holds nothing
 * secret: the secret comes from the receiver's environment. It mirrors lib/webhooks/receiver.ts,
 * and snippet.test.ts runs it against signatures made by lib/webhooks/signature.ts.
 */
export const SECRET_ENV_VAR = "WEBHOOK_SECRET";

export const NODE_VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from "node:crypto";

const secret = process.env.${SECRET_ENV_VAR}; // whsec_…
const TOLERANCE_SECONDS = 300;

// rawBody: the request body exactly as received (a Buffer), before any JSON parsing
// header: the X-Service-Signature header, "t=<unix seconds>,v1=<hex>"
export function verifySignature(rawBody, header) {
  const parts = Object.fromEntries(
    String(header ?? "").split(",").map((part) => part.trim().split("=", 2)),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? "")) return false;
  if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\`).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(parts.v1, "hex"));
}

// in your handler: refuse the request unless
// verifySignature(rawBody, req.headers["x-service-signature"]) is true
`;
