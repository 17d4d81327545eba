/**
 * The OpenID Provider's one-time values (client assertion `jti`, RFC 7523 §3; DPoP proof `jti`,
 * RFC 9449 §11.1), shared by every instance in PostgreSQL (table oidc_replay).
 * Rules:
 * - a value is claimed with one INSERT … ON CONFLICT DO NOTHING: of two requests carrying it,
 *   on any instances, exactly one claims it; an expired claim no longer blocks (it is taken over
 *   in the same statement), since the value itself can no longer be accepted by then;
 * - only the SHA-256 of the value is stored, under a scope naming what it is and whose
 *   ("client_assertion:<clientId>", "dpop:<clientId>");
 * - expired rows are purged by the hourly oidc_purge job (lib/oidc/purge.ts).
 */
import { sql } from "kysely";
import { sha256Hex } from "../../crypto/hash";
import { prepared, type Db } from "../../db/kysely";

const CLAIM = prepared(
  "oidc_replay_claim",
  (db, p: { scope: string; key: string; now: Date; expiresAt: Date }) =>
    db
      .insertInto("oidcReplay")
      .values({ scope: p.scope, key: p.key, expiresAt: p.expiresAt })
      .onConflict((oc) =>
        oc
          .columns(["scope", "key"])
          .doUpdateSet({ expiresAt: p.expiresAt })
          // only a claim that has expired is taken over
          .where("oidcReplay.expiresAt", "<=", p.now),
      )
      .returning("key"),
);

/**
 * Claims `value` in `scope` until `expiresAt`: true the first time (or after an earlier claim
 * expired), false when it was seen and is still remembered — a replay.
 */
export async function claimOnce(
  db: Db,
  scope: string,
  value: string,
  expiresAt: Date,
  now: Date = new Date(),
): Promise<boolean> {
  const rows = await CLAIM.run(db, { scope, key: sha256Hex(value), now, expiresAt });
  return rows.length === 1;
}

/** Deletes at most `limit` one-time values that expired before `before`: how many went. */
export async function deleteExpiredReplayEntries(db: Db, before: Date, limit: number): Promise<number> {
  const result = await sql`
    DELETE FROM oidc_replay WHERE ctid IN (
      SELECT ctid FROM oidc_replay WHERE expires_at < ${before} LIMIT ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
