/**
 * A session's state changes (lib/verifications/transitions.ts) and the other writes of its row,
 * on the data layer (lib/db/kysely.ts). Rows come typed from the generated types.
 * Rules:
 * - the lock is one statement (`SELECT … FOR UPDATE OF v`; the expiry sweep's batch of due
 *   sessions: `… SKIP LOCKED`): the whole row (`v.*`: a new column comes with it) with the
 *   versions of its workflow: the current one, and the one it was planned on (the session's
 *   recorded version while its history row is kept, else the current one);
 * - a workflow's content is read only for a version this process has not parsed yet
 *   (lib/workflows/row.ts `runnableWorkflowVersion`, which checks the nodes; a version's content
 *   never changes);
 * - the write is one statement: the session's columns a transition may change (all of them, as
 *   the change leaves them: the row is locked and was read in the same transaction), the events'
 *   outbox (lib/webhooks/store/outbox.ts `withOutbox`) and, when the session ended completed or
 *   failed, its decision record;
 * - these run on every state change: prepared (named);
 * - the REST return is claimed once, with a conditional update (`claimReturn`).
 */
import { sql, type Selectable } from "kysely";
import type { Verification } from "../../db/generated/kysely/types";
import { prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import { outboxValues, type TEventSpec } from "../../webhooks/events";
import { withOutbox, type TOutboxParams } from "../../webhooks/store/outbox";
import type { TRunnableWorkflow } from "../../workflows/engine/nodes";
import { cachedWorkflowVersion, runnableWorkflowVersion } from "../../workflows/row";
import type { TDecisionRow } from "../decisions";

/** A session row as read. */
export type TVerificationRow = Selectable<Verification>;

/** A session row read under its lock, with the versions of its workflow. */
export interface TLockedSession {
  verification: TVerificationRow;
  /** null when the workflow was deleted */
  workflow: {
    /** its current version */
    current: number;
    /** the version the session was planned on, while kept (else the current one) */
    planned: number;
  } | null;
}

/** The whole session row and the versions of its workflow (see the module rules). */
function sessionWithWorkflow(db: Db) {
  return db
    .selectFrom("verifications as v")
    .leftJoin("workflows as w", "w.id", "v.workflowId")
    .selectAll("v")
    .select((eb) => [
      "w.version as workflowCurrentVersion",
      eb
        .case()
        .when(
          eb.or([
            eb("v.workflowVersion", "is", null),
            eb("v.workflowVersion", "=", eb.ref("w.version")),
            eb.not(
              eb.exists(
                eb
                  .selectFrom("workflowVersions as k")
                  .select(sql.lit(1).as("one"))
                  .whereRef("k.workflowId", "=", "w.id")
                  .whereRef("k.version", "=", "v.workflowVersion"),
              ),
            ),
          ]),
        )
        .then(eb.ref("w.version"))
        .else(eb.ref("v.workflowVersion"))
        .end()
        .as("workflowPlannedVersion"),
    ]);
}

type TSessionWithWorkflow = Awaited<ReturnType<ReturnType<typeof sessionWithWorkflow>["execute"]>>[number];

function lockedSessionOf(row: TSessionWithWorkflow): TLockedSession {
  const { workflowCurrentVersion: current, workflowPlannedVersion: planned, ...verification } = row;
  return {
    verification,
    workflow: current === null ? null : { current, planned: planned ?? current },
  };
}

const LOCK_SESSION = prepared("verifications_lock_session", (db, p: { verificationId: string }) =>
  sessionWithWorkflow(db).where("v.id", "=", p.verificationId).forUpdate("v"),
);

/** The session row, locked for the rest of the caller's transaction; null when there is none. */
export async function selectSessionForUpdate(db: Db, verificationId: string): Promise<TLockedSession | null> {
  const [row] = await LOCK_SESSION.run(db, { verificationId });
  return row ? lockedSessionOf(row) : null;
}

const LOCK_DUE_SESSIONS = prepared(
  "verifications_lock_due_sessions",
  (db, p: { states: string[]; now: Date; limit: number }) =>
    // index verifications(status, expires_at); rows another transaction holds are passed over
    sessionWithWorkflow(db)
      .where((eb) => eb("v.status", "=", eb.fn.any(eb.val(p.states))))
      .where("v.expiresAt", "<=", p.now)
      .limit(p.limit)
      .forUpdate("v")
      .skipLocked(),
);

/**
 * Up to `limit` sessions in one of `states` whose expiresAt is `now` or earlier, locked for the
 * rest of the caller's transaction (one statement). Sessions another transaction has locked are
 * skipped, not waited for: concurrent callers never take the same session and never block.
 */
export async function selectDueSessionsForUpdate(
  db: Db,
  states: readonly string[],
  now: Date,
  limit: number,
): Promise<TLockedSession[]> {
  const rows = await LOCK_DUE_SESSIONS.run(db, { states: [...states], now, limit });
  return rows.map(lockedSessionOf);
}

const READ_WORKFLOW_VERSION = prepared(
  "verifications_workflow_version",
  (db, p: { workflowId: string; version: number }) =>
    // the version's history row; the workflow row itself when the history does not have it
    db
      .selectFrom("workflows as w")
      .leftJoin("workflowVersions as k", (join) =>
        join.onRef("k.workflowId", "=", "w.id").on("k.version", "=", p.version),
      )
      .select((eb) => [
        eb.fn.coalesce("k.version", "w.version").as("version"),
        eb.fn.coalesce("k.entryNodeId", "w.entryNodeId").as("entryNodeId"),
        eb.fn.coalesce("k.nodes", "w.nodes").as("nodes"),
      ])
      .where("w.id", "=", p.workflowId),
);

/**
 * What the engine runs of version `version` of workflow `workflowId`: from this process's cache,
 * else read (null when the workflow is gone).
 */
export async function workflowAtVersion(
  db: Db,
  workflowId: string,
  version: number,
): Promise<TRunnableWorkflow | null> {
  const cached = cachedWorkflowVersion(workflowId, version);
  if (cached) return cached;
  const [row] = await READ_WORKFLOW_VERSION.run(db, { workflowId, version });
  return row
    ? runnableWorkflowVersion({
        id: workflowId,
        version: row.version,
        entryNodeId: row.entryNodeId,
        nodes: row.nodes,
      })
    : null;
}

/** The columns `saveSession` writes: all a transition may change. */
export type TSavedColumns = Pick<
  TVerificationRow,
  | "status"
  | "statusReason"
  | "loa"
  | "subject"
  | "matchDataEncrypted"
  | "resultEncrypted"
  | "evidenceEncrypted"
  | "upstreamEncrypted"
  | "updatedAt"
  | "verifiedAt"
  | "startedAt"
  | "authenticatedAt"
  | "endedAt"
  | "personalDataDeletedAt"
  | "untouched"
>;

/**
 * The columns a transition may set besides status, updatedAt and endedAt (transitions.ts
 * `move`): exactly those `saveSession` writes, so no change can be lost.
 */
export type TSessionUpdate = Partial<Omit<TSavedColumns, "status" | "updatedAt" | "endedAt">>;

/** The decision record's parameters (all null: no decision). */
interface TDecisionParams {
  decisionAppId: string | null;
  decisionWorkspaceId: string | null;
  decisionEnvironment: string | null;
  decisionWorkflowId: string | null;
  decisionWorkflowVersion: number | null;
  decisionProviderId: string | null;
  decisionNodeId: string | null;
  decisionLoa: number | null;
  decisionClaimsPresent: string[] | null;
  /** JSON */
  decisionMatch: string | null;
  /** JSON */
  decisionFacts: string | null;
  decisionOutcome: string | null;
  decisionReasonCode: string | null;
  decisionPath: string[] | null;
  decidedAt: Date | null;
}

const SAVE_SESSION = prepared(
  "verifications_save",
  (db, p: TSavedColumns & TDecisionParams & TOutboxParams) =>
    withOutbox(db, p)
      .with("updatedVerification", (qc) =>
        qc
          .updateTable("verifications")
          .set({
            status: p.status,
            statusReason: p.statusReason,
            loa: p.loa,
            subject: p.subject,
            matchDataEncrypted: p.matchDataEncrypted,
            resultEncrypted: p.resultEncrypted,
            evidenceEncrypted: p.evidenceEncrypted,
            upstreamEncrypted: p.upstreamEncrypted,
            updatedAt: p.updatedAt,
            verifiedAt: p.verifiedAt,
            startedAt: p.startedAt,
            authenticatedAt: p.authenticatedAt,
            endedAt: p.endedAt,
            personalDataDeletedAt: p.personalDataDeletedAt,
            untouched: p.untouched,
          })
          .where("id", "=", p.verificationId)
          .returning("id"),
      )
      .with("insertedDecision", (qc) =>
        qc
          .insertInto("verificationDecisions")
          .columns([
            "verificationId",
            "appId",
            "workspaceId",
            "environment",
            "workflowId",
            "workflowVersion",
            "providerId",
            "verificationNodeId",
            "loa",
            "claimsPresent",
            "match",
            "facts",
            "outcome",
            "reasonCode",
            "path",
            "decidedAt",
          ])
          .expression(
            // no FROM, so no column types the parameters: each is cast to its column's
            qc
              .selectNoFrom([
                sql<string>`${p.verificationId}::text`.as("verificationId"),
                sql<string>`${p.decisionAppId}::text`.as("appId"),
                sql<string>`${p.decisionWorkspaceId}::text`.as("workspaceId"),
                sql<TEnvironment>`${p.decisionEnvironment}::text::"Environment"`.as("environment"),
                sql<string>`${p.decisionWorkflowId}::text`.as("workflowId"),
                sql<number | null>`${p.decisionWorkflowVersion}::int`.as("workflowVersion"),
                sql<string>`${p.decisionProviderId}::text`.as("providerId"),
                sql<string>`${p.decisionNodeId}::text`.as("verificationNodeId"),
                sql<number | null>`${p.decisionLoa}::int`.as("loa"),
                sql<string[]>`${p.decisionClaimsPresent}::text[]`.as("claimsPresent"),
                sql<unknown>`${p.decisionMatch}::jsonb`.as("match"),
                sql<unknown>`${p.decisionFacts}::jsonb`.as("facts"),
                sql<string>`${p.decisionOutcome}::text`.as("outcome"),
                sql<string | null>`${p.decisionReasonCode}::text`.as("reasonCode"),
                sql<string[]>`${p.decisionPath}::text[]`.as("path"),
                sql<Date>`${p.decidedAt}::timestamp`.as("decidedAt"),
              ])
              .where(sql<boolean>`${p.decisionOutcome}::text IS NOT NULL`),
          )
          .returning("verificationId"),
      )
      .selectNoFrom((eb) => [
        eb
          .selectFrom("updatedVerification")
          .select(sql<number>`count(*)::int`.as("n"))
          .as("updated"),
        eb
          .selectFrom("insertedDecision")
          .select(sql<number>`count(*)::int`.as("n"))
          .as("decisions"),
      ]),
);

/** The decision's parameters of SAVE_SESSION (all null: no decision). */
function decisionParams(decision: TDecisionRow | null): TDecisionParams {
  return {
    decisionAppId: decision?.appId ?? null,
    decisionWorkspaceId: decision?.workspaceId ?? null,
    decisionEnvironment: decision?.environment ?? null,
    decisionWorkflowId: decision?.workflowId ?? null,
    decisionWorkflowVersion: decision?.workflowVersion ?? null,
    decisionProviderId: decision?.providerId ?? null,
    decisionNodeId: decision?.verificationNodeId ?? null,
    decisionLoa: decision?.loa ?? null,
    decisionClaimsPresent: decision?.claimsPresent ?? null,
    decisionMatch: decision && decision.match !== null ? JSON.stringify(decision.match) : null,
    decisionFacts: decision ? JSON.stringify(decision.facts) : null,
    decisionOutcome: decision?.outcome ?? null,
    decisionReasonCode: decision?.reasonCode ?? null,
    decisionPath: decision?.path ?? null,
    decidedAt: decision?.decidedAt ?? null,
  };
}

/**
 * Writes the session row `v` as a change left it (the row must be locked in this transaction),
 * its `events` (each may carry the row as it saw it) with their deliveries where the app's webhook
 * is subscribed, and its decision record: one statement.
 */
export async function saveSession(
  db: Db,
  v: TVerificationRow,
  events: readonly TEventSpec[],
  decision: TDecisionRow | null,
): Promise<void> {
  const outbox = outboxValues(v, events, new Date(), db);
  const [saved] = await SAVE_SESSION.run(db, { ...v, ...decisionParams(decision), ...outbox.params });
  // the row is locked by this transaction: it cannot have gone
  if (saved?.updated !== 1) throw new Error(`verifications_save: session "${v.id}" was not updated`);
  outbox.ran();
}

/** Claims the REST return of session `id` (once: true for the one claim that took it). */
export async function claimReturn(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("verifications")
    .set({ returnedAt: at, updatedAt: at })
    .where("id", "=", id)
    .where("returnedAt", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

const READ_STATUS = prepared("verifications_hosted_status", (db, p: { verificationId: string }) =>
  db.selectFrom("verifications").select(["status", "statusReason"]).where("id", "=", p.verificationId),
);

/** The status and its reason of session `id` (the hosted page polls it); undefined: none. */
export async function readSessionStatus(db: Db, id: string) {
  const [row] = await READ_STATUS.run(db, { verificationId: id });
  return row;
}

/** The flow of session `id`; undefined: none. */
export async function readFlowType(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("verifications").select("flowType").where("id", "=", id).executeTakeFirst();
  return row?.flowType;
}

/** Session `id` as it is (no lock); undefined: none. */
export async function readVerification(db: Db, id: string): Promise<TVerificationRow | undefined> {
  return db.selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * The ids of up to `limit` sessions of `providerId` in `environment` in one of `states`, after
 * `after` in id order (keyset pagination).
 */
export async function sessionIdsOfProvider(
  db: Db,
  filter: { environment: TEnvironment; providerId: string; states: readonly string[] },
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom("verifications")
    .select("id")
    .where("environment", "=", filter.environment)
    .where("providerId", "=", filter.providerId)
    .where("status", "in", filter.states)
    .where("id", ">", after)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
