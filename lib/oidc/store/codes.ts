/**
 * Authorization codes (lib/oidc/codes.ts has the rules) on the data layer (lib/db/kysely.ts):
 * issued on the hosted page's REST return and the OpenID Provider's resume, read and claimed by
 * `redeemAuthorizationCode` (the token endpoints read and consume them with what they issue:
 * ./grant.ts). Prepared: a code is issued on a request of a sign-in's return.
 * Rules:
 * - a row is the generated row type; `createdAt` is set here, from this process's clock;
 * - the claim is one conditional update (`used_at` only while null): of two concurrent claims
 *   exactly one changes the row.
 */
import type { Insertable, Selectable } from "kysely";
import { prepared, type Db, type DB } from "../../db/kysely";

/** A stored authorization code (only its SHA-256 is stored). */
export type TCodeRow = Selectable<DB["authorizationCodes"]>;

type TNewCode = Required<Omit<Insertable<DB["authorizationCodes"]>, "usedAt">> & {
  expiresAt: Date;
  createdAt: Date;
};

const INSERT_CODE = prepared("oidc_code_insert", (db, p: TNewCode) =>
  db.insertInto("authorizationCodes").values({
    codeHash: p.codeHash,
    appId: p.appId,
    environment: p.environment,
    verificationId: p.verificationId,
    surface: p.surface,
    redirectUri: p.redirectUri,
    codeChallenge: p.codeChallenge,
    nonce: p.nonce,
    scope: p.scope,
    dpopJkt: p.dpopJkt,
    expiresAt: p.expiresAt,
    createdAt: p.createdAt,
  }),
);

/** Stores a new, unused code. */
export async function insertAuthorizationCode(db: Db, code: TNewCode): Promise<void> {
  await INSERT_CODE.run(db, code);
}

const READ_CODE = prepared("oidc_code_read", (db, p: { codeHash: string }) =>
  db.selectFrom("authorizationCodes").selectAll().where("codeHash", "=", p.codeHash),
);

/** The code stored as `codeHash`; undefined when there is none. */
export async function readAuthorizationCode(db: Db, codeHash: string): Promise<TCodeRow | undefined> {
  const [row] = await READ_CODE.run(db, { codeHash });
  return row;
}

const CLAIM_CODE = prepared("oidc_code_claim", (db, p: { codeHash: string; now: Date }) =>
  db
    .updateTable("authorizationCodes")
    .set({ usedAt: p.now })
    .where("codeHash", "=", p.codeHash)
    .where("usedAt", "is", null)
    .returning("codeHash"),
);

/** Marks the code used at `now` if it still is unused: false when it was used already. */
export async function claimAuthorizationCode(db: Db, codeHash: string, now: Date): Promise<boolean> {
  return (await CLAIM_CODE.run(db, { codeHash, now })).length === 1;
}
