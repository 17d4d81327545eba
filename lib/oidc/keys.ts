/**
 * Signing keys of ID tokens, per environment and algorithm (ES256 by default, RS256 on request),
 * shared by the REST code exchange and the OpenID Provider.
 * Rules:
 * - a private key is stored only as a JWK sealed with IDV_MASTER_KEY; only public parts are
 *   ever published;
 * - kid = RFC 7638 thumbprint of the public key: distinct per key and checkable by anyone;
 * - the newest non-retired key of an (environment, alg) signs; the first one is created lazily,
 *   under a transaction-scoped advisory lock, so instances racing to create it end with one;
 * - a key is created in a transaction of its own, never inside the caller's: a caller that
 *   rolls back must not leave a token signed by a key that was never published;
 * - rotation (IDV_KEY_ROTATION_DAYS) retires the active key and keeps it published until every
 *   token it can have signed has expired; after that it is deleted, private half included;
 * - every change of an environment's keys (creation, retirement, deletion) publishes the
 *   CACHE_TOPICS.signingKeys invalidation in its transaction, so every instance's cached JWKS
 *   (lib/oidc/provider/documents.ts) is dropped when it commits.
 */
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from "jose";
import { z } from "zod";
import { recordAudit } from "../audit";
import { SYSTEM_ACTOR } from "../auth/actor";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { kysely } from "../db/client";
import { inTransaction, type Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { jsonParser, memberParser } from "../state-machine";
import { ACTIVE_KEY_CACHE_SECONDS, keyRotationDays, MAX_TOKEN_LIFETIME_SECONDS } from "./settings";
import {
  deleteSigningKeys,
  insertSigningKey,
  listSigningKeys,
  lockSigningKeys,
  readActiveSigningKey,
  readPublishedSigningKeys,
  retireSigningKeys,
} from "./store/keys";

export const SIGNING_ALGS = ["ES256", "RS256"] as const;
export type TSigningAlg = (typeof SIGNING_ALGS)[number];
/** `signing_keys.alg` as read from its row. */
export const parseSigningAlg = memberParser(SIGNING_ALGS, "signing_keys.alg");
/** `signing_keys.public_jwk` (written from publicPartOf) as read from its row. */
const parsePublicJwk = jsonParser(
  z.object({
    kty: z.string(),
    crv: z.string().optional(),
    x: z.string().optional(),
    y: z.string().optional(),
    n: z.string().optional(),
    e: z.string().optional(),
  }),
  "signing_keys.public_jwk",
);

export interface TSigningKey {
  kid: string;
  alg: TSigningAlg;
  privateKey: CryptoKey;
}

export interface TPublicJwk extends JWK {
  kid: string;
  alg: TSigningAlg;
  use: "sig";
}

export interface TJwks {
  keys: TPublicJwk[];
}

/** The columns of a stored key that rotation decisions need. */
export interface TKeyRecord {
  id: string;
  alg: string;
  createdAt: Date;
  retiredAt: Date | null;
  expiresAt: Date | null;
}

/**
 * How long a retired key stays published: the longest token lifetime, plus the window in which
 * other instances may still sign with the key they cached, plus a minute of clock skew.
 */
export function retiredKeyGraceSeconds(): number {
  return MAX_TOKEN_LIFETIME_SECONDS + ACTIVE_KEY_CACHE_SECONDS + 60;
}

// ---------------------------------------------------------------------------------------------
// Pure parts (unit-tested without a database)

/** The public members of a key; everything else (d, p, q, dp, dq, qi, …) is private. */
export function publicPartOf(jwk: JWK): JWK {
  if (jwk.kty === "EC") return { kty: "EC", crv: jwk.crv, x: jwk.x, y: jwk.y };
  if (jwk.kty === "RSA") return { kty: "RSA", n: jwk.n, e: jwk.e };
  throw new Error(`unsupported signing key type ${String(jwk.kty)}`);
}

export async function generateSigningKeyMaterial(
  alg: TSigningAlg,
): Promise<{ kid: string; publicJwk: JWK; privateJwk: JWK }> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const publicJwk = publicPartOf(privateJwk);
  const kid = await calculateJwkThumbprint(publicJwk, "sha256");
  return { kid, publicJwk, privateJwk };
}

export function isPublished(key: Pick<TKeyRecord, "expiresAt">, now: Date): boolean {
  return key.expiresAt === null || key.expiresAt.getTime() > now.getTime();
}

export interface TRotationPlan {
  /** algorithms that get a new active key */
  create: TSigningAlg[];
  /** keys to retire now (published until now + grace) */
  retire: string[];
  /** keys past their publication end: deleted */
  remove: string[];
}

/**
 * What a rotation run does. An alg without any key is left alone (its first key is created on
 * first use); an active key older than the rotation period is replaced; stray extra active keys
 * (which the creation lock prevents) are retired too.
 */
export function planRotation(keys: TKeyRecord[], now: Date, rotationDays = keyRotationDays()): TRotationPlan {
  const plan: TRotationPlan = { create: [], retire: [], remove: [] };
  const dueBefore = now.getTime() - rotationDays * 86_400_000;
  for (const alg of SIGNING_ALGS) {
    const active = keys
      .filter((k) => k.alg === alg && k.retiredAt === null)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const [newest, ...stale] = active;
    if (!newest) continue;
    plan.retire.push(...stale.map((k) => k.id));
    if (newest.createdAt.getTime() <= dueBefore) {
      plan.create.push(alg);
      plan.retire.push(newest.id);
    }
  }
  plan.remove = keys.filter((k) => k.retiredAt !== null && !isPublished(k, now)).map((k) => k.id);
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Stored keys

// The active key per environment and alg, re-read after ACTIVE_KEY_CACHE_SECONDS so a rotation
// made by another instance is picked up; imported private keys are immutable and cached by kid.
const activeCache = new Map<string, { key: TSigningKey; loadedAt: number }>();
const importedKeys = new Map<string, CryptoKey>();

export function clearSigningKeyCache(): void {
  activeCache.clear();
  importedKeys.clear();
}

/** The client itself, or the service's client when `db` is a caller's transaction. */
function rootClient(db: Db): Db {
  return db.isTransaction ? kysely() : db;
}

/**
 * A new active key, with its audit entry and the JWKS caches' invalidation, in `tx`.
 */
async function insertKey(
  tx: Db,
  environment: TEnvironment,
  alg: TSigningAlg,
  createdAt: Date,
): Promise<{ id: string; privateJwkEncrypted: string }> {
  const material = await generateSigningKeyMaterial(alg);
  const key = { id: material.kid, privateJwkEncrypted: encryptSecret(JSON.stringify(material.privateJwk)) };
  await insertSigningKey(tx, {
    ...key,
    environment,
    alg,
    publicJwk: material.publicJwk,
    createdAt,
  });
  await recordAudit(tx, {
    environment,
    actor: SYSTEM_ACTOR,
    action: "signing_key.created",
    targetType: "signing_key",
    targetId: material.kid,
    data: { alg },
  });
  await publishInvalidation(tx, CACHE_TOPICS.signingKeys, environment);
  return key;
}

async function importPrivateKey(kid: string, alg: TSigningAlg, sealed: string): Promise<CryptoKey> {
  const cached = importedKeys.get(kid);
  if (cached) return cached;
  const key = (await importJWK(JSON.parse(decryptSecret(sealed)) as JWK, alg)) as CryptoKey;
  importedKeys.set(kid, key);
  return key;
}

/** The key that signs new tokens of this environment and alg, created on first use. */
export async function getSigningKey(
  db: Db,
  environment: TEnvironment,
  alg: TSigningAlg = "ES256",
): Promise<TSigningKey> {
  const cacheKey = `${environment}:${alg}`;
  const hit = activeCache.get(cacheKey);
  if (hit && Date.now() - hit.loadedAt < ACTIVE_KEY_CACHE_SECONDS * 1000) return hit.key;

  let row = await readActiveSigningKey(db, environment, alg);
  // a transaction of its own (see the rules)
  row ??= await inTransaction(rootClient(db), async (tx) => {
    await lockSigningKeys(tx, environment, alg);
    // another instance may have created it while we waited for the lock
    return (await readActiveSigningKey(tx, environment, alg)) ?? insertKey(tx, environment, alg, new Date());
  });
  const key: TSigningKey = {
    kid: row.id,
    alg,
    privateKey: await importPrivateKey(row.id, alg, row.privateJwkEncrypted),
  };
  activeCache.set(cacheKey, { key, loadedAt: Date.now() });
  return key;
}

/** Makes sure every algorithm has an active key (for a JWKS served before any token). */
export async function ensureSigningKeys(db: Db, environment: TEnvironment): Promise<void> {
  for (const alg of SIGNING_ALGS) await getSigningKey(db, environment, alg);
}

/**
 * The JWKS of an environment (every key still published, public parts only, newest first) and
 * when it changes by itself: the end of publication of its first retired key (none: null).
 */
export async function publishedJwks(
  db: Db,
  environment: TEnvironment,
  now = new Date(),
): Promise<{ jwks: TJwks; changesAt: Date | null }> {
  const rows = await readPublishedSigningKeys(db, environment, now);
  let changesAt: Date | null = null;
  for (const { expiresAt } of rows)
    if (expiresAt && (!changesAt || expiresAt.getTime() < changesAt.getTime())) changesAt = expiresAt;
  const keys = rows.map((row): TPublicJwk => ({
    ...publicPartOf(parsePublicJwk(row.publicJwk)),
    kid: row.id,
    alg: parseSigningAlg(row.alg),
    use: "sig",
  }));
  return { jwks: { keys }, changesAt };
}

/** The JWKS of an environment: every key still published, public parts only, newest first. */
export async function publicJwks(db: Db, environment: TEnvironment, now = new Date()): Promise<TJwks> {
  return (await publishedJwks(db, environment, now)).jwks;
}

/**
 * The JWKS of `environment` as the OP serves it, on the service's database: a fresh deployment's
 * keys are made first (ensureSigningKeys), then publishedJwks.
 */
export async function servedJwks(
  environment: TEnvironment,
): Promise<{ jwks: TJwks; changesAt: Date | null }> {
  await ensureSigningKeys(kysely(), environment);
  return publishedJwks(kysely(), environment);
}

export interface TRotationResult {
  created: string[];
  retired: string[];
  removed: string[];
}

/**
 * Replaces active keys older than the rotation period, retires them (published until
 * retiredAt + grace) and deletes keys whose publication has ended. Safe to run on many instances
 * at once: the same locks as key creation serialise it.
 */
export async function rotateSigningKeys(
  db: Db,
  environment: TEnvironment,
  now = new Date(),
): Promise<TRotationResult> {
  const run = async (tx: Db): Promise<TRotationResult> => {
    for (const alg of SIGNING_ALGS) await lockSigningKeys(tx, environment, alg);
    const plan = planRotation(await listSigningKeys(tx, environment), now);
    const expiresAt = new Date(now.getTime() + retiredKeyGraceSeconds() * 1000);
    await retireSigningKeys(tx, plan.retire, now, expiresAt);
    const created: string[] = [];
    for (const alg of plan.create) created.push((await insertKey(tx, environment, alg, now)).id);
    await deleteSigningKeys(tx, plan.remove);
    if (plan.retire.length + created.length + plan.remove.length > 0)
      await publishInvalidation(tx, CACHE_TOPICS.signingKeys, environment);
    for (const [action, ids] of [
      ["signing_key.retired", plan.retire],
      ["signing_key.deleted", plan.remove],
    ] as const) {
      for (const id of ids) {
        await recordAudit(tx, {
          environment,
          actor: SYSTEM_ACTOR,
          action,
          targetType: "signing_key",
          targetId: id,
        });
      }
    }
    return { created, retired: plan.retire, removed: plan.remove };
  };
  const result = await inTransaction(db, run);
  for (const alg of SIGNING_ALGS) activeCache.delete(`${environment}:${alg}`);
  for (const id of result.removed) importedKeys.delete(id);
  return result;
}
