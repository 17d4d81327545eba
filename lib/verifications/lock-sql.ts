/**
 * A session row read under its row lock in one statement (`SELECT … FOR UPDATE`), for
 * transitions.ts: Prisma's queries cannot lock, and a lock followed by a second read cost two
 * round trips per state change.
 * Rules: every column of `verifications` is listed (a new column must be added here, or the row
 * type does not match); each is read by its type (text, integer, boolean, timestamp as UTC),
 * whichever driver ran the statement (lib/sql/statement.ts): a value of another type is an error
 * naming the column, never a cast.
 */
import type { Tx } from "../db/client";
import type { Verification } from "../db/generated/client";
import { column, defineStatement, parseTimestamp, type TRow } from "../db/sql";
import { parseEnvironment } from "../environments";
import { runStatement } from "../sql/statement";

/** A timestamp column: a Date from Prisma, UTC text from lib/db/sql.ts. */
function instantOrNull(row: TRow, name: string): Date | null {
  const value = row[name];
  if (value === null) return null;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  const parsed = typeof value === "string" ? parseTimestamp(value) : undefined;
  if (!parsed) throw new Error(`column "${name}": expected a timestamp`);
  return parsed;
}

function instant(row: TRow, name: string): Date {
  const value = instantOrNull(row, name);
  if (!value) throw new Error(`column "${name}": expected a timestamp, got null`);
  return value;
}

const LOCK_VERIFICATION = defineStatement<[verificationId: string], Verification>({
  name: "verifications_lock",
  text: `SELECT id, app_id, workspace_id, environment::text AS environment, provider_id, workflow_id,
      workflow_version, verification_node_id, flow_type, channel, status, status_reason, redirect_uri, state,
      locale, device_type, country_code, challenge_id, loa, subject, match_data_encrypted, result_encrypted,
      evidence_encrypted, upstream_encrypted, created_at, updated_at, expires_at, verified_at, started_at,
      authenticated_at, ended_at, personal_data_deleted_at, browser_binding_hash, returned_at, via_oidc_provider
    FROM verifications WHERE id = $1::text FOR UPDATE`,
  parse: (row) => {
    const environment = parseEnvironment(column.text(row, "environment"));
    if (!environment) throw new Error(`column "environment": not an environment`);
    return {
      id: column.text(row, "id"),
      appId: column.text(row, "app_id"),
      workspaceId: column.text(row, "workspace_id"),
      environment,
      providerId: column.text(row, "provider_id"),
      workflowId: column.text(row, "workflow_id"),
      workflowVersion: column.intOrNull(row, "workflow_version"),
      verificationNodeId: column.text(row, "verification_node_id"),
      flowType: column.text(row, "flow_type"),
      channel: column.text(row, "channel"),
      status: column.text(row, "status"),
      statusReason: column.textOrNull(row, "status_reason"),
      redirectUri: column.textOrNull(row, "redirect_uri"),
      state: column.textOrNull(row, "state"),
      locale: column.textOrNull(row, "locale"),
      deviceType: column.textOrNull(row, "device_type"),
      countryCode: column.textOrNull(row, "country_code"),
      challengeId: column.textOrNull(row, "challenge_id"),
      loa: column.intOrNull(row, "loa"),
      subject: column.textOrNull(row, "subject"),
      matchDataEncrypted: column.textOrNull(row, "match_data_encrypted"),
      resultEncrypted: column.textOrNull(row, "result_encrypted"),
      evidenceEncrypted: column.textOrNull(row, "evidence_encrypted"),
      upstreamEncrypted: column.textOrNull(row, "upstream_encrypted"),
      createdAt: instant(row, "created_at"),
      updatedAt: instant(row, "updated_at"),
      expiresAt: instant(row, "expires_at"),
      verifiedAt: instantOrNull(row, "verified_at"),
      startedAt: instantOrNull(row, "started_at"),
      authenticatedAt: instantOrNull(row, "authenticated_at"),
      endedAt: instantOrNull(row, "ended_at"),
      personalDataDeletedAt: instantOrNull(row, "personal_data_deleted_at"),
      browserBindingHash: column.textOrNull(row, "browser_binding_hash"),
      returnedAt: instantOrNull(row, "returned_at"),
      viaOidcProvider: column.boolean(row, "via_oidc_provider"),
    };
  },
});

/** The session row, locked for the rest of the caller's transaction; null when there is none. */
export async function selectVerificationForUpdate(
  db: Tx,
  verificationId: string,
): Promise<Verification | null> {
  const [row] = await runStatement(db, LOCK_VERIFICATION, [verificationId]);
  return row ?? null;
}
