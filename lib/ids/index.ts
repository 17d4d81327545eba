/** Prefixed identifiers: `<prefix>_<ulid>` (sortable by creation time, 128 bits). */
import { randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";

// the ulid package asks the CSPRNG for one byte per character (16 calls per id); the same bytes
// drawn 4 KB at a time cost a fraction (every request makes a request id). A byte / 256 picks
// one of the 32 characters uniformly.
let randomPool = randomBytes(4096);
let randomAt = 0;
function pooledRandom(): number {
  if (randomAt === randomPool.length) {
    randomPool = randomBytes(4096);
    randomAt = 0;
  }
  return randomPool[randomAt++]! / 256;
}

// monotonic: ids made in the same millisecond still sort in creation order
const ulid = monotonicFactory(pooledRandom);

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
  | "wfc"
  | "pwr"
  | "sup"
  | "con";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

// a ULID: 26 characters of Crockford's base32 (no I, L, O, U), as the ulid package writes them
const ULID = "[0-9A-HJKMNP-TV-Z]{26}";
const ID_PATTERN = new RegExp(`^([a-z]{2,3})_${ULID}$`);

/**
 * True when `value` is an id of this kind as newId makes them: `<prefix>_` and a ULID, nothing
 * else. Input that names a resource by id is checked with this before any query, so an id that
 * cannot exist (a NUL, a path, 10 KB of text) is simply "not found".
 */
export function isId(prefix: IdPrefix, value: string): boolean {
  const m = ID_PATTERN.exec(value);
  return m !== null && m[1] === prefix;
}

/**
 * The REST path parameters that are ids, with their kind (app/api/[env]/v1/**: the segment
 * names). A value that is not an id of that kind is 404 RESOURCE_NOT_FOUND (lib/http/api.ts).
 */
export const PATH_ID_PARAMS: Readonly<
  Record<string, { prefix: IdPrefix; label: string; alsoAccepts?: IdPrefix }>
> = {
  clientId: { prefix: "app", label: "App" },
  keyId: { prefix: "key", label: "API key" },
  workflowId: { prefix: "wf", label: "Workflow" },
  caseId: { prefix: "wfc", label: "Test case" },
  deliveryId: { prefix: "dlv", label: "Webhook delivery" },
  // a request id (ptr_…) in its place reaches the handler, which says which id to use
  challengeId: { prefix: "chl", label: "Production test", alsoAccepts: "ptr" },
  verificationId: { prefix: "ver", label: "Verification" },
  ticketId: { prefix: "act", label: "Activation ticket" },
  requestId: { prefix: "ptr", label: "Production test request" },
  workspaceId: { prefix: "ws", label: "Workspace" },
  invitationId: { prefix: "inv", label: "Invitation" },
  userId: { prefix: "usr", label: "Member" },
};

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
