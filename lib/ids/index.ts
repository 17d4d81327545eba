/** Prefixed identifiers: `<prefix>_<ulid>` (sortable by creation time, 128 bits). */
import { randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";

// monotonic: ids made in the same millisecond still sort in creation order
const ulid = monotonicFactory();

export type IdPrefix =
  | "ws"
  | "usr"
  | "key"
  | "app"
  | "wf"
  | "act"
  | "ver"
  | "evt"
  | "aud"
  | "req"
  | "dlv"
  | "dom"
  | "ptr"
  | "chl"
  | "ptp"
  | "oar"
  | "inv"
  | "wfc";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random token over [A-Za-z0-9] with `length` characters (unbiased). */
export function randomToken(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}
