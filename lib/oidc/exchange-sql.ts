/**
 * The two statements of a code exchange (exchange.ts): the presented code with its verification,
 * read in one (with the client's credential at the token endpoints, `grantWithCredential`), and
 * its consumption with what is issued from it in the other.
 * Rules:
 * - the read takes no lock: every check of lib/oidc/codes.ts and of the verification runs on it,
 *   and the ID token is minted, before anything is written;
 * - the consumption is one statement, atomic by itself (lib/db/statement.ts): the conditional
 *   update of `used_at` (only while it is null, so of two concurrent redemptions exactly one
 *   wins: the other's update finds the row used once the winner commits), the OpenID Provider's
 *   access token and the audit entry, both written only when the update happened;
 * - a code that lost the race is answered as a reused code (codes.ts).
 */
import { AUDIT_PARAMS, auditInsertSql, auditValues, type AuditEntry } from "../audit";
import { defineAppRowRead } from "../auth/app-credentials";
import type { Tx } from "../db/client";
import { column, defineStatement, type TRow, type TSqlValue } from "../db/sql";
import { parseEnvironment } from "../environments";
import { runStatement } from "../db/statement";
import type { TStoredCode } from "./codes";

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

const epochMs = (row: TRow, name: string): Date => new Date(column.int(row, name));
const epochMsOrNull = (row: TRow, name: string): Date | null =>
  row[name] === null ? null : epochMs(row, name);
// timestamp(3) columns hold UTC: their epoch milliseconds, which both drivers read as a number
const ms = (expression: string) => `round(extract(epoch from ${expression}) * 1000)::float8`;

/** What the exchange reads of a code: the stored code and its verification. */
export interface TGrant {
  code: TStoredCode;
  verification: TGrantVerification | null;
}

/** The code of hash `param` with its verification. */
const grantSelect = (
  param: string,
) => `SELECT c.code_hash, c.app_id, c.environment::text AS environment, c.verification_id, c.surface,
      c.redirect_uri, c.code_challenge, c.nonce, c.scope, ${ms("c.expires_at")} AS expires_ms,
      ${ms("c.used_at")} AS used_ms,
      v.id AS v_id, v.app_id AS v_app_id, v.environment::text AS v_environment, v.status AS v_status,
      v.subject AS v_subject, v.loa AS v_loa, v.provider_id AS v_provider_id,
      ${ms("COALESCE(v.verified_at, v.updated_at)")} AS v_auth_time_ms
    FROM authorization_codes c LEFT JOIN verifications v ON v.id = c.verification_id
    WHERE c.code_hash = ${param}::text`;

function parseGrant(row: TRow): TGrant {
  const environment = parseEnvironment(column.text(row, "environment"));
  if (!environment) throw new Error(`authorization_codes.environment: unknown value`);
  const verificationId = column.textOrNull(row, "v_id");
  return {
    code: {
      codeHash: column.text(row, "code_hash"),
      appId: column.text(row, "app_id"),
      environment,
      verificationId: column.text(row, "verification_id"),
      surface: column.text(row, "surface"),
      redirectUri: column.textOrNull(row, "redirect_uri"),
      codeChallenge: column.textOrNull(row, "code_challenge"),
      nonce: column.textOrNull(row, "nonce"),
      scope: column.textOrNull(row, "scope"),
      expiresAt: epochMs(row, "expires_ms"),
      usedAt: epochMsOrNull(row, "used_ms"),
    },
    verification: verificationId
      ? {
          id: verificationId,
          appId: column.text(row, "v_app_id"),
          environment: column.text(row, "v_environment"),
          status: column.text(row, "v_status"),
          subject: column.textOrNull(row, "v_subject"),
          loa: column.intOrNull(row, "v_loa"),
          providerId: column.text(row, "v_provider_id"),
          authTime: epochMs(row, "v_auth_time_ms"),
        }
      : null,
  };
}

const READ_GRANT = defineStatement<[codeHash: string], TGrant>({
  name: "oidc_grant_read",
  text: grantSelect("$1"),
  parse: parseGrant,
});

/**
 * The code of hash `$2` with its verification, read in the same statement as the client's
 * credential (lib/auth/app-credentials.ts `authenticateAppWith`): the token endpoints'
 * authentication and the code are one round trip.
 */
export const grantWithCredential = defineAppRowRead({
  name: "oidc_grant_with_credential",
  param: "code",
  text: grantSelect("$2"),
  parse: parseGrant,
});

/** The stored code of `codeHash` with its verification (null when either is missing). */
export async function readGrant(db: Tx, codeHash: string): Promise<TGrant | null> {
  const [row] = await runStatement(db, READ_GRANT, [codeHash]);
  return row ?? null;
}

/** The access token the OpenID Provider issues with the ID token (stored as its SHA-256). */
export interface TIssuedAccessToken {
  tokenHash: string;
  scope: string;
  expiresAt: Date;
}

const CONSUME_PARAMS = 8;

const CONSUME_GRANT = defineStatement<TSqlValue[], boolean>({
  name: "oidc_grant_consume",
  text: `WITH consumed AS (
    UPDATE authorization_codes SET used_at = ($2::timestamptz AT TIME ZONE 'UTC')
    WHERE code_hash = $1::text AND used_at IS NULL
    RETURNING code_hash
  ),
  access_token AS (
    INSERT INTO oidc_access_tokens (token_hash, app_id, environment, verification_id, code_hash, scope, expires_at, created_at)
    SELECT $3::text, $4::text, $5::text::"Environment", $6::text, c.code_hash, $7::text,
      ($8::timestamptz AT TIME ZONE 'UTC'), ($2::timestamptz AT TIME ZONE 'UTC')
    FROM consumed c WHERE $3::text IS NOT NULL
  ),
  audit AS (
    ${auditInsertSql(CONSUME_PARAMS + 1, "consumed")}
  )
  SELECT EXISTS (SELECT 1 FROM consumed) AS consumed`,
  parse: (row) => column.boolean(row, "consumed"),
});

/**
 * Marks the code used at `now` (only if it still is unused), with the access token (if any) and
 * the audit entry: one statement. False when a concurrent redemption consumed it first.
 */
export async function consumeGrant(
  db: Tx,
  input: {
    code: Pick<TStoredCode, "codeHash" | "appId" | "verificationId" | "environment">;
    now: Date;
    accessToken?: TIssuedAccessToken;
    audit: AuditEntry;
  },
): Promise<boolean> {
  const token = input.accessToken;
  const values: TSqlValue[] = [
    input.code.codeHash,
    input.now,
    token?.tokenHash ?? null,
    input.code.appId,
    input.code.environment,
    input.code.verificationId,
    token?.scope ?? null,
    token?.expiresAt ?? null,
    ...auditValues(input.audit),
  ];
  if (values.length !== CONSUME_PARAMS + AUDIT_PARAMS) throw new Error("oidc_grant_consume: parameter count");
  const [consumed] = await runStatement(db, CONSUME_GRANT, values);
  return consumed === true;
}
