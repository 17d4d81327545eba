/**
 * The personal data of a session: matchData, the userinfo (claims, provenance, match), the
 * evidence and the upstream hand-off state.
 * Rules:
 * - it is sealed with IDV_MASTER_KEY at rest and never logged;
 * - a sealed value is parsed with the zod schema of what was sealed when it is read back;
 * - it is wiped when the session is cancelled, and by the retention job IDV_RETENTION_DAYS after
 *   the session ended (the row itself stays: purge.ts deletes it much later).
 */
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import type { Db } from "../db/client";
import { jsonParser } from "../state-machine";
import { ZCreateVerification } from "./schema";
import { retentionDays } from "./settings";
import { wipePersonalData } from "./store/retention";

export function seal(value: unknown): string {
  return encryptSecret(JSON.stringify(value));
}

/**
 * A sealed value read back through `parse` (a `jsonParser` of the schema of what was sealed);
 * undefined when nothing is sealed.
 */
export function unseal<T>(sealed: string | null, parse: (value: unknown) => T): T | undefined {
  return sealed ? parse(JSON.parse(decryptSecret(sealed))) : undefined;
}

/** matchData as sealed at creation (`verifications.match_data_encrypted`). */
export const parseMatchData = jsonParser(
  ZCreateVerification.shape.matchData.unwrap(),
  "verifications.match_data_encrypted",
);

/** The columns that hold a session's personal data, emptied, with the moment they were. */
export function personalDataWipe() {
  return {
    matchDataEncrypted: null,
    resultEncrypted: null,
    evidenceEncrypted: null,
    upstreamEncrypted: null,
    personalDataDeletedAt: new Date(),
  };
}

/** Retention: wipes personal data of sessions that ended more than IDV_RETENTION_DAYS ago. */
export async function purgeExpiredPersonalData(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays() * 24 * 3600 * 1000);
  return wipePersonalData(db, cutoff, personalDataWipe());
}
