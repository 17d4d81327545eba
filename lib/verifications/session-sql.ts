/**
 * The statements of a session's state changes (transitions.ts): the row read under its lock, a
 * workflow's content at a version, and the one write of everything a change did.
 * Rules:
 * - the lock is one statement (`SELECT … FOR UPDATE OF v`; the expiry sweep's batch of due
 *   sessions: `… SKIP LOCKED`): every column of `verifications` (a new column must be added here,
 *   or the row type does not match), each read by its type (text, integer, boolean, timestamp as
 *   UTC) whichever driver ran it (lib/db/statement.ts), a value of another type an error naming
 *   the column, never a cast; with the versions of the session's workflow: the current one, and
 *   the one it was planned on (create.ts `plannedWorkflow`: the session's recorded version while
 *   its history row is kept, else the current one);
 * - a workflow's content is read only for a version this process has not parsed yet
 *   (lib/workflows/row.ts `runnableWorkflowVersion`; a version's content never changes);
 * - the write is one statement: the session's columns a transition may change (all of them, as
 *   the change leaves them: the row is locked and was read in the same transaction), the events'
 *   outbox (lib/webhooks/events.ts `outboxCtes`) and, when the session ended completed or
 *   failed, its decision record.
 */
import type { Verification } from "../db/generated/client";
import { column, defineStatement, parseTimestamp, utcParam, type TRow, type TSqlValue } from "../db/sql";
import { parseEnvironment } from "../environments";
import { runStatement, type TSqlDb } from "../db/statement";
import { OUTBOX_PARAMS, outboxCtes, outboxValues, type TEventSpec } from "../webhooks/events";
import type { TRunnableWorkflow } from "../workflows/engine/nodes";
import { cachedWorkflowVersion, runnableWorkflowVersion } from "../workflows/row";
import type { TDecisionRow } from "./decisions";

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

function verificationOf(row: TRow): Verification {
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
    untouched: column.boolean(row, "untouched"),
  };
}

/** A session row read under its lock, with the versions of its workflow. */
export interface TLockedSession {
  verification: Verification;
  /** null when the workflow was deleted */
  workflow: {
    /** its current version */
    current: number;
    /** the version the session was planned on, while kept (else the current one) */
    planned: number;
  } | null;
}

// every column of the row, and the versions of its workflow (see the module rules)
const LOCKED_SESSION_COLUMNS = `v.id, v.app_id, v.workspace_id, v.environment::text AS environment, v.provider_id,
      v.workflow_id, v.workflow_version, v.verification_node_id, v.flow_type, v.channel, v.status, v.status_reason,
      v.redirect_uri, v.state, v.locale, v.device_type, v.country_code, v.challenge_id, v.loa, v.subject,
      v.match_data_encrypted, v.result_encrypted, v.evidence_encrypted, v.upstream_encrypted, v.created_at,
      v.updated_at, v.expires_at, v.verified_at, v.started_at, v.authenticated_at, v.ended_at,
      v.personal_data_deleted_at, v.browser_binding_hash, v.returned_at, v.via_oidc_provider, v.untouched,
      w.version AS workflow_current_version,
      CASE WHEN v.workflow_version IS NULL OR v.workflow_version = w.version OR NOT EXISTS (
          SELECT 1 FROM workflow_versions k WHERE k.workflow_id = w.id AND k.version = v.workflow_version)
        THEN w.version ELSE v.workflow_version END AS workflow_planned_version
    FROM verifications v LEFT JOIN workflows w ON w.id = v.workflow_id`;

function lockedSessionOf(row: TRow): TLockedSession {
  const current = column.intOrNull(row, "workflow_current_version");
  return {
    verification: verificationOf(row),
    workflow: current === null ? null : { current, planned: column.int(row, "workflow_planned_version") },
  };
}

const LOCK_SESSION = defineStatement<[verificationId: string], TLockedSession>({
  name: "verifications_lock_session",
  text: `SELECT ${LOCKED_SESSION_COLUMNS}
    WHERE v.id = $1::text FOR UPDATE OF v`,
  parse: lockedSessionOf,
});

/** The session row, locked for the rest of the caller's transaction; null when there is none. */
export async function selectSessionForUpdate(
  db: TSqlDb,
  verificationId: string,
): Promise<TLockedSession | null> {
  const [row] = await runStatement(db, LOCK_SESSION, [verificationId]);
  return row ?? null;
}

const LOCK_DUE_SESSIONS = defineStatement<[states: string[], now: Date, limit: number], TLockedSession>({
  name: "verifications_lock_due_sessions",
  // index verifications(status, expires_at); rows another transaction holds are passed over
  text: `SELECT ${LOCKED_SESSION_COLUMNS}
    WHERE v.status = ANY ($1::text[]) AND v.expires_at <= ($2::timestamptz AT TIME ZONE 'UTC')
    LIMIT $3::int FOR UPDATE OF v SKIP LOCKED`,
  parse: lockedSessionOf,
});

/**
 * Up to `limit` sessions in one of `states` whose expiresAt is `now` or earlier, locked for the
 * rest of the caller's transaction (one statement). Sessions another transaction has locked are
 * skipped, not waited for: concurrent callers never take the same session and never block.
 */
export async function selectDueSessionsForUpdate(
  db: TSqlDb,
  states: readonly string[],
  now: Date,
  limit: number,
): Promise<TLockedSession[]> {
  return runStatement(db, LOCK_DUE_SESSIONS, [[...states], now, limit]);
}

const READ_WORKFLOW_VERSION = defineStatement<
  [workflowId: string, version: number],
  { version: number; entryNodeId: string; nodes: unknown }
>({
  name: "verifications_workflow_version",
  // the version's history row; the workflow row itself when the history does not have it
  text: `SELECT COALESCE(k.version, w.version) AS version, COALESCE(k.entry_node_id, w.entry_node_id) AS entry_node_id,
      COALESCE(k.nodes, w.nodes) AS nodes
    FROM workflows w LEFT JOIN workflow_versions k ON k.workflow_id = w.id AND k.version = $2::int
    WHERE w.id = $1::text`,
  parse: (row) => ({
    version: column.int(row, "version"),
    entryNodeId: column.text(row, "entry_node_id"),
    nodes: column.json(row, "nodes"),
  }),
});

/**
 * What the engine runs of version `version` of workflow `workflowId`: from this process's cache,
 * else read (null when the workflow is gone).
 */
export async function workflowAtVersion(
  db: TSqlDb,
  workflowId: string,
  version: number,
): Promise<TRunnableWorkflow | null> {
  const cached = cachedWorkflowVersion(workflowId, version);
  if (cached) return cached;
  const [row] = await runStatement(db, READ_WORKFLOW_VERSION, [workflowId, version]);
  return row ? runnableWorkflowVersion({ id: workflowId, ...row }) : null;
}

/**
 * The columns a transition may set besides status, updatedAt and endedAt (transitions.ts
 * `move`): exactly those SAVE_SESSION writes, so no change can be lost.
 */
export type TSessionUpdate = Partial<
  Pick<
    Verification,
    | "statusReason"
    | "loa"
    | "subject"
    | "matchDataEncrypted"
    | "resultEncrypted"
    | "evidenceEncrypted"
    | "upstreamEncrypted"
    | "verifiedAt"
    | "startedAt"
    | "authenticatedAt"
    | "personalDataDeletedAt"
    | "untouched"
  >
>;

const SESSION_PARAMS = 16;
const DECISION = SESSION_PARAMS + OUTBOX_PARAMS;
const d = (i: number) => `$${DECISION + i}`;

const SAVE_SESSION = defineStatement<TSqlValue[], { updated: number; decisions: number }>({
  name: "verifications_save",
  text: `WITH updated_verification AS (
    UPDATE verifications SET status = $2::text, status_reason = $3::text, loa = $4::int, subject = $5::text,
      match_data_encrypted = $6::text, result_encrypted = $7::text, evidence_encrypted = $8::text,
      upstream_encrypted = $9::text, updated_at = ${utcParam(10)}, verified_at = ${utcParam(11)}, started_at = ${utcParam(12)},
      authenticated_at = ${utcParam(13)}, ended_at = ${utcParam(14)}, personal_data_deleted_at = ${utcParam(15)},
      untouched = $16::boolean
    WHERE id = $1::text
    RETURNING id
  ),
  ${outboxCtes(SESSION_PARAMS + 1)},
  inserted_decision AS (
    INSERT INTO verification_decisions (verification_id, app_id, workspace_id, environment, workflow_id,
      workflow_version, provider_id, verification_node_id, loa, claims_present, match, facts, outcome, reason_code,
      path, decided_at)
    SELECT $1::text, ${d(1)}::text, ${d(2)}::text, ${d(3)}::text::"Environment", ${d(4)}::text, ${d(5)}::int,
      ${d(6)}::text, ${d(7)}::text, ${d(8)}::int, ${d(9)}::text[], ${d(10)}::jsonb, ${d(11)}::jsonb, ${d(12)}::text,
      ${d(13)}::text, ${d(14)}::text[], ${utcParam(DECISION + 15)}
    WHERE ${d(12)}::text IS NOT NULL
    RETURNING verification_id
  )
  SELECT (SELECT count(*)::int FROM updated_verification) AS updated,
    (SELECT count(*)::int FROM inserted_decision) AS decisions`,
  parse: (row) => ({ updated: column.int(row, "updated"), decisions: column.int(row, "decisions") }),
});

/** The decision's parameters of SAVE_SESSION (all null: no decision). */
function decisionValues(decision: TDecisionRow | null): TSqlValue[] {
  if (!decision) return Array.from({ length: 15 }, () => null);
  return [
    decision.appId,
    decision.workspaceId,
    decision.environment,
    decision.workflowId,
    decision.workflowVersion,
    decision.providerId,
    decision.verificationNodeId,
    decision.loa,
    decision.claimsPresent,
    decision.match === null ? null : JSON.stringify(decision.match),
    JSON.stringify(decision.facts),
    decision.outcome,
    decision.reasonCode,
    decision.path,
    decision.decidedAt,
  ];
}

/**
 * Writes the session row `v` as a change left it (the row must be locked in this transaction),
 * its `events` (each may carry the row as it saw it) with their deliveries where the app's webhook
 * is subscribed, and its decision record: one statement.
 */
export async function saveSession(
  db: TSqlDb,
  v: Verification,
  events: readonly TEventSpec[],
  decision: TDecisionRow | null,
): Promise<void> {
  const outbox = outboxValues(v, events, new Date(), db);
  const [saved] = await runStatement(db, SAVE_SESSION, [
    v.id,
    v.status,
    v.statusReason,
    v.loa,
    v.subject,
    v.matchDataEncrypted,
    v.resultEncrypted,
    v.evidenceEncrypted,
    v.upstreamEncrypted,
    v.updatedAt,
    v.verifiedAt,
    v.startedAt,
    v.authenticatedAt,
    v.endedAt,
    v.personalDataDeletedAt,
    v.untouched,
    ...outbox.values,
    ...decisionValues(decision),
  ]);
  // the row is locked by this transaction: it cannot have gone
  if (saved?.updated !== 1) throw new Error(`verifications_save: session "${v.id}" was not updated`);
  outbox.ran();
}
