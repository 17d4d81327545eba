import { createHash, timingSafeEqual } from "node:crypto";

/** SHA-256 hex of a high-entropy secret: how client secrets and API keys are stored. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** Constant-time comparison of two hex digests. */
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

export function digestEquals(a: string, b: string): boolean {
  if (!HEX.test(a) || !HEX.test(b)) return false;
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
