/**
 * The code exchange's statements (lib/oidc/exchange.ts), prepared (each runs on a request of a
 * token endpoint) but the revocation of a reused code's access tokens, in two: the presented
 * code with its verification, read in one (with the client's credential at the token endpoints,
 * `grantWithCredential`), and its consumption with what is issued from it in the other.
 * Rules:
 * - the read takes no lock: every check of lib/oidc/codes.ts and of the verification runs on it,
 *   and the ID token is minted, before anything is written;
 * - the consumption is one statement, atomic by itself: the conditional update of `used_at`
 *   (only while it is null, so of two concurrent redemptions exactly one wins: the other's update
 *   finds the row used once the winner commits), the OpenID Provider's access token and the
 *   audit entry (lib/audit/store.ts), both written only when the update happened;
 * - a code that lost the race is answered as a reused code (codes.ts), and the access tokens
 *   issued from it are revoked (`revokeAccessTokensOfCode`).
 */
import { sql } from "kysely";
import { jsonBuildObject, jsonObjectFrom } from "kysely/helpers/postgres";
import { auditSelection, auditValues, AUDIT_COLUMNS, type TAuditValues } from "../../audit/store";
import type { AuditEntry } from "../../audit/entry";
import { defineClientRowRead } from "../../auth/app-credentials";
import { epochMs, epochMsOrNull, fromEpochMs, fromEpochMsOrNull } from "../../db/timestamps";
import { prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import type { TStoredCode } from "../codes";

/** What the exchange needs of the code's verification. */
export interface TGrantVerification {
  id: string;
  appId: string;
  environment: string;
  status: string;
  subject: string | null;
  loa: number | null;
  providerId: string;
  /** verifiedAt, else updatedAt */
  authTime: Date;
}

/** What the exchange reads of a code: the stored code and its verification. */
export interface TGrant {
  code: TStoredCode;
  verification: TGrantVerification | null;
}

/**
 * The code of hash `codeHash` with its verification, as one JSON object (it is also read inside
 * the credential's statement: defineClientRowRead), timestamps in epoch milliseconds.
 */
const grantRows = (db: Db, codeHash: string) =>
  db
    .selectFrom("authorizationCodes as c")
    .select((eb) =>
      jsonBuildObject({
        codeHash: eb.ref("c.codeHash"),
        appId: eb.ref("c.appId"),
        environment: eb.ref("c.environment"),
        verificationId: eb.ref("c.verificationId"),
        surface: eb.ref("c.surface"),
        redirectUri: eb.ref("c.redirectUri"),
        codeChallenge: eb.ref("c.codeChallenge"),
        nonce: eb.ref("c.nonce"),
        scope: eb.ref("c.scope"),
        dpopJkt: eb.ref("c.dpopJkt"),
        expiresAtMs: epochMs(eb.ref("c.expiresAt")),
        usedAtMs: epochMsOrNull(eb.ref("c.usedAt")),
        // null when the verification is gone (`v`: the object's one key)
        verification: jsonObjectFrom(
          eb
            .selectFrom("verifications as v")
            .select((v) =>
              jsonBuildObject({
                id: v.ref("v.id"),
                appId: v.ref("v.appId"),
                environment: v.ref("v.environment"),
                status: v.ref("v.status"),
                subject: v.ref("v.subject"),
                loa: v.ref("v.loa"),
                providerId: v.ref("v.providerId"),
                authTimeMs: epochMs(v.fn.coalesce("v.verifiedAt", "v.updatedAt")),
              }).as("v"),
            )
            .whereRef("v.id", "=", "c.verificationId"),
        ),
      }).as("grant"),
    )
    .where("c.codeHash", "=", codeHash);

type TGrantRow = {
  expiresAtMs: number;
  usedAtMs: number | null;
  verification: { v: { authTimeMs: number } & Omit<TGrantVerification, "authTime"> } | null;
} & Omit<TStoredCode, "expiresAt" | "usedAt">;

function verificationOf({
  authTimeMs,
  ...v
}: { authTimeMs: number } & Omit<TGrantVerification, "authTime">): TGrantVerification {
  return { ...v, authTime: fromEpochMs(authTimeMs) };
}

function grantOf({ expiresAtMs, usedAtMs, verification, ...code }: TGrantRow): TGrant {
  return {
    code: { ...code, expiresAt: fromEpochMs(expiresAtMs), usedAt: fromEpochMsOrNull(usedAtMs) },
    verification: verification && verificationOf(verification.v),
  };
}

const READ_GRANT = prepared("oidc_grant_read", (db, p: { codeHash: string }) => grantRows(db, p.codeHash));

/**
 * The code of hash `id` with its verification, read in the same statement as the client's
 * credential and OpenID client settings (lib/auth/app-credentials.ts `authenticateClientAppWith`,
 * `findClientAppWith`): the token endpoints' authentication and the code are one round trip.
 */
export const grantWithCredential = defineClientRowRead({
  name: "oidc_grant_with_credential",
  param: "code",
  row: (db, id) => grantRows(db, id).$asScalar(),
  parse: grantOf,
});

/** The stored code of `codeHash` with its verification (null when the code is missing). */
export async function readGrant(db: Db, codeHash: string): Promise<TGrant | null> {
  const [row] = await READ_GRANT.run(db, { codeHash });
  return row ? grantOf(row.grant) : null;
}

/** The access token the OpenID Provider issues with the ID token (stored as its SHA-256). */
export interface TIssuedAccessToken {
  tokenHash: string;
  scope: string;
  expiresAt: Date;
  /** the JWK thumbprint of the DPoP key the token is bound to (RFC 9449 §6: cnf.jkt) */
  dpopJkt?: string;
}

interface TConsumeValues extends TAuditValues {
  codeHash: string;
  now: Date;
  /** null: no access token is issued */
  tokenHash: string | null;
  appId: string;
  environment: TEnvironment;
  verificationId: string;
  scope: string | null;
  expiresAt: Date | null;
  dpopJkt: string | null;
}

const CONSUME_GRANT = prepared("oidc_grant_consume", (db, p: TConsumeValues) =>
  db
    .with("consumed", (qc) =>
      qc
        .updateTable("authorizationCodes")
        .set({ usedAt: p.now })
        .where("codeHash", "=", p.codeHash)
        .where("usedAt", "is", null)
        .returning("codeHash"),
    )
    .with("accessToken", (qc) =>
      qc
        .insertInto("oidcAccessTokens")
        .columns([
          "tokenHash",
          "appId",
          "environment",
          "verificationId",
          "codeHash",
          "scope",
          "expiresAt",
          "dpopJkt",
          "createdAt",
        ])
        .expression((eb) =>
          eb
            .selectFrom("consumed")
            .select((c) => [
              c.val(p.tokenHash).as("tokenHash"),
              c.val(p.appId).as("appId"),
              c.val(p.environment).as("environment"),
              c.val(p.verificationId).as("verificationId"),
              "consumed.codeHash",
              c.val(p.scope).as("scope"),
              c.val(p.expiresAt).as("expiresAt"),
              c.val(p.dpopJkt).as("dpopJkt"),
              c.val(p.now).as("createdAt"),
            ])
            .where(sql<boolean>`${p.tokenHash}::text IS NOT NULL`),
        ),
    )
    .with("audit", (qc) =>
      qc
        .insertInto("auditEvents")
        .columns(AUDIT_COLUMNS)
        .expression((eb) => eb.selectFrom("consumed").select((c) => auditSelection(c, p))),
    )
    .selectNoFrom((eb) => eb.exists(eb.selectFrom("consumed").select("codeHash")).as("consumed")),
);

/**
 * Marks the code used at `now` (only if it still is unused), with the access token (if any) and
 * the audit entry: one statement. False when a concurrent redemption consumed it first.
 */
export async function consumeGrant(
  db: Db,
  input: {
    code: Pick<TStoredCode, "codeHash" | "appId" | "verificationId" | "environment">;
    now: Date;
    accessToken?: TIssuedAccessToken;
    audit: AuditEntry;
  },
): Promise<boolean> {
  const token = input.accessToken;
  const [row] = await CONSUME_GRANT.run(db, {
    codeHash: input.code.codeHash,
    now: input.now,
    tokenHash: token?.tokenHash ?? null,
    appId: input.code.appId,
    environment: input.code.environment,
    verificationId: input.code.verificationId,
    scope: token?.scope ?? null,
    expiresAt: token?.expiresAt ?? null,
    dpopJkt: token?.dpopJkt ?? null,
    ...auditValues(input.audit),
  });
  return row?.consumed === true;
}

/** Revokes, at `now`, every access token issued from the code `codeHash` not revoked yet: how many. */
export async function revokeAccessTokensOfCode(db: Db, codeHash: string, now: Date): Promise<number> {
  const result = await db
    .updateTable("oidcAccessTokens")
    .set({ revokedAt: now })
    .where("codeHash", "=", codeHash)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
