/**
 * The signing keys of ID tokens (lib/oidc/keys.ts has the rules) on the data layer
 * (lib/db/kysely.ts). The reads of the active key and of the published keys are prepared (the
 * token endpoints and the JWKS read them, behind the process's caches).
 * Rules:
 * - `public_jwk` is read as stored (`unknown`: keys.ts checks it) and written as JSON text;
 * - the creation of a key, the rotation and their audit entries run in the caller's
 *   transaction, under `lockSigningKeys` (a transaction-scoped advisory lock per environment and
 *   alg), so instances racing to create or rotate end with one result.
 */
import { sql } from "kysely";
import { prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

const ACTIVE_KEY = prepared("oidc_signing_key_active", (db, p: { environment: TEnvironment; alg: string }) =>
  db
    .selectFrom("signingKeys")
    .select(["id", "privateJwkEncrypted"])
    .where("environment", "=", p.environment)
    .where("alg", "=", p.alg)
    .where("retiredAt", "is", null)
    .orderBy("createdAt", "desc")
    .limit(1),
);

/** The newest key of `environment` and `alg` that is not retired (it signs); undefined: none. */
export async function readActiveSigningKey(db: Db, environment: TEnvironment, alg: string) {
  const [row] = await ACTIVE_KEY.run(db, { environment, alg });
  return row;
}

const PUBLISHED_KEYS = prepared(
  "oidc_signing_keys_published",
  (db, p: { environment: TEnvironment; now: Date }) =>
    db
      .selectFrom("signingKeys")
      .select(["id", "alg", "publicJwk", "expiresAt"])
      .where("environment", "=", p.environment)
      .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", p.now)]))
      .orderBy("createdAt", "desc"),
);

/** The keys of `environment` still published at `now` (their public parts), newest first. */
export function readPublishedSigningKeys(db: Db, environment: TEnvironment, now: Date) {
  return PUBLISHED_KEYS.run(db, { environment, now });
}

/** Every key of `environment`, with what rotation decides on. */
export function listSigningKeys(db: Db, environment: TEnvironment) {
  return db
    .selectFrom("signingKeys")
    .select(["id", "alg", "createdAt", "retiredAt", "expiresAt"])
    .where("environment", "=", environment)
    .execute();
}

/** Stores a new active key. */
export async function insertSigningKey(
  db: Db,
  key: {
    id: string;
    environment: TEnvironment;
    alg: string;
    publicJwk: object;
    privateJwkEncrypted: string;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto("signingKeys")
    .values({ ...key, publicJwk: JSON.stringify(key.publicJwk) })
    .execute();
}

/** Retires the keys of `ids` not retired yet at `now`, published until `expiresAt`. */
export async function retireSigningKeys(
  db: Db,
  ids: readonly string[],
  now: Date,
  expiresAt: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("signingKeys")
    .set({ retiredAt: now, expiresAt })
    .where("id", "in", ids)
    .where("retiredAt", "is", null)
    .execute();
}

/** Deletes the keys of `ids`, private halves included. */
export async function deleteSigningKeys(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("signingKeys").where("id", "in", ids).execute();
}

/** Waits for the lock of `environment`'s `alg` signing keys, held until `db`'s transaction ends. */
export async function lockSigningKeys(db: Db, environment: TEnvironment, alg: string): Promise<void> {
  await db
    .selectNoFrom((eb) =>
      eb
        .fn("pg_advisory_xact_lock", [
          eb.fn("hashtextextended", [eb.val(`signing-keys:${environment}:${alg}`), sql.lit(0)]),
        ])
        .as("locked"),
    )
    .execute();
}
