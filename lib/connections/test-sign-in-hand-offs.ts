/**
 * The hand-offs of test sign-ins whose answer is a cross-site form post (./test-sign-in.ts): the
 * IdP's HTTP-POST to the connection's ACS carries no cookie of ours, and SAML Bindings
 * §3.4.3/§3.5.3 limit its RelayState to 80 bytes (enforced by eIDAS nodes and SPID).
 * Rules:
 * - the hand-off is kept server-side in `connection_test_hand_offs` under a short random
 *   RelayState (`t.` + 32 random base64url characters, 34 bytes); the row's id is the SHA-256 of
 *   that RelayState (never stored as it is), its hand-off sealed (./test-sign-in-cookies.ts): no
 *   personal data;
 * - the ACS recognises it by the prefix (a session's RelayState starts with ver_) and consumes
 *   it in one statement (DELETE … RETURNING, for its environment and provider only): single use,
 *   refused once expired;
 * - expired rows are purged hourly (`saml_assertion_purge`), in bounded batches.
 */
import { randomBytes } from "node:crypto";
import { sha256Hex } from "../crypto/hash";
import type { Db } from "../db/kysely";
import { parseEnvironment } from "../environments";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";
import { deleteExpiredHandOffs, insertHandOff, takeHandOffRow } from "./store/hand-offs";
import { sealHandOff, unsealHandOff, type THandOff } from "./test-sign-in-cookies";

/** The prefix of a test sign-in's RelayState (a session's starts with ver_). */
const RELAY_PREFIX = "t.";
/** A test sign-in's RelayState: the prefix and 32 random base64url characters (192 bits; 34 of the 80 bytes). */
const TEST_RELAY_STATE = /^t\.[A-Za-z0-9_-]{32}$/;

/** A fresh RelayState for a form post's hand-off. */
export function newTestRelayState(): string {
  return `${RELAY_PREFIX}${randomBytes(24).toString("base64url")}`;
}

/** Whether a form post's RelayState is a test sign-in's (not a session's). */
export function isTestSignInRelayState(relayState: string | undefined): relayState is string {
  return relayState?.startsWith(RELAY_PREFIX) === true;
}

/** The key of a form post's hand-off row: the SHA-256 of the RelayState (never stored as it is). */
function handOffKey(relayState: string): string {
  return sha256Hex(relayState);
}

/** Keeps a form post's hand-off under its RelayState (in the start's transaction). */
export async function keepHandOff(db: Db, relayState: string, handOff: THandOff): Promise<void> {
  await insertHandOff(db, {
    id: handOffKey(relayState),
    environment: handOff.env,
    providerId: handOff.providerId,
    handOffSealed: sealHandOff(handOff),
    expiresAt: new Date(handOff.expiresAt),
  });
}

/**
 * The hand-off a form post's RelayState names at the ACS of `providerId` in `env`, deleted as it
 * is read (single use: of two posts of the same RelayState exactly one gets it); null when there
 * is none (unknown, used, purged, or another ACS's: that one's row is left alone) or it expired.
 */
export async function takeHandOff(
  db: Db,
  relayState: string,
  at: { env: string; providerId: string },
): Promise<THandOff | null> {
  const env = parseEnvironment(at.env);
  if (!env || !TEST_RELAY_STATE.test(relayState)) return null;
  const sealed = await takeHandOffRow(db, handOffKey(relayState), {
    environment: env,
    providerId: at.providerId,
  });
  const handOff = unsealHandOff(sealed);
  if (!handOff || handOff.env !== env || handOff.providerId !== at.providerId) return null;
  return Date.now() > handOff.expiresAt ? null : handOff;
}

/** Deletes the form posts' hand-offs that expired unanswered, in bounded batches (hourly). */
export async function purgeExpiredTestSignInHandOffs(
  db: Db,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  return deleteInBatches((limit) => deleteExpiredHandOffs(db, now, limit), batchSize);
}
