/**
 * The workflows of an app, their versions and regression cases, and what-if's read of decision
 * records, on the data layer (lib/db/kysely.ts). The rules are the services' (service.ts,
 * versions.ts, version-record.ts, cases.ts, what-if.ts); this module only reads and writes.
 * Rules of its rows:
 * - rows are the generated row types (`TWorkflowRow`, …): json columns (`nodes`, `positions`, a
 *   decision's `facts`) are `unknown`, checked by their readers (row.ts, facts.ts); their keys
 *   come back as stored (node ids and provider ids hold underscores: store.integration.test.ts);
 *   they are written as JSON text (an array would otherwise go out as a PostgreSQL array);
 * - timestamps are set here (`createdAt` of a new row, `updatedAt` of every
 *   change: @updatedAt), from this process's clock;
 * - the app row is locked here too (`lockApp`) and its default workflow set
 *   (`setDefaultWorkflowOf`): the default-workflow rules of service.ts need them in one place.
 */
import type { Selectable } from "kysely";
import { prepared, type Db, type DB } from "../db/kysely";
import type { TEnvironment } from "../environments";

/** A row of workflows. */
export type TWorkflowRow = Selectable<DB["workflows"]>;
/** A row of workflow_versions. */
export type TWorkflowVersionRow = Selectable<DB["workflowVersions"]>;
/** A row of workflow_cases. */
export type TWorkflowCaseRow = Selectable<DB["workflowCases"]>;

// ---------------------------------------------------------------------------------------------
// Locks

const LOCK_WORKFLOW = prepared("workflows_lock", (db, p: { workflowId: string }) =>
  db.selectFrom("workflows").selectAll().where("id", "=", p.workflowId).forUpdate(),
);

/** Locks workflow `workflowId` for the rest of the transaction and reads it; undefined when none. */
export async function lockWorkflowRow(db: Db, workflowId: string): Promise<TWorkflowRow | undefined> {
  const [row] = await LOCK_WORKFLOW.run(db, { workflowId });
  return row;
}

const LOCK_APP = prepared("workflows_lock_app", (db, p: { clientId: string }) =>
  db.selectFrom("apps").select("id").where("id", "=", p.clientId).forUpdate(),
);

/** Locks the app row (delete and set-default of its workflows are serialized on it). */
export async function lockApp(db: Db, clientId: string): Promise<void> {
  await LOCK_APP.run(db, { clientId });
}

// ---------------------------------------------------------------------------------------------
// Workflows

export interface TWorkflowContentValues {
  name: string;
  entryNodeId: string;
  nodes: unknown;
  positions: unknown;
}

/** Creates a workflow at version 1 (createdAt = updatedAt). */
export async function insertWorkflow(
  db: Db,
  values: TWorkflowContentValues & { id: string; appId: string },
): Promise<TWorkflowRow> {
  const now = new Date();
  return db
    .insertInto("workflows")
    .values({
      id: values.id,
      appId: values.appId,
      name: values.name,
      entryNodeId: values.entryNodeId,
      nodes: JSON.stringify(values.nodes),
      positions: JSON.stringify(values.positions),
      version: 1,
      createdAt: now,
      updatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Writes `content` as the workflow's version `version`; undefined when the row is gone. */
export async function updateWorkflowContent(
  db: Db,
  workflowId: string,
  content: TWorkflowContentValues,
  version: number,
): Promise<TWorkflowRow | undefined> {
  return db
    .updateTable("workflows")
    .set({
      name: content.name,
      entryNodeId: content.entryNodeId,
      nodes: JSON.stringify(content.nodes),
      positions: JSON.stringify(content.positions),
      version,
      updatedAt: new Date(),
    })
    .where("id", "=", workflowId)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the workflow (its versions and cases go with it); whether there was one. */
export async function deleteWorkflowRow(db: Db, workflowId: string): Promise<boolean> {
  const result = await db.deleteFrom("workflows").where("id", "=", workflowId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Makes `workflowId` the app's default workflow; whether the app row was there. */
export async function setDefaultWorkflowOf(db: Db, clientId: string, workflowId: string): Promise<boolean> {
  const result = await db
    .updateTable("apps")
    .set({ defaultWorkflowId: workflowId, updatedAt: new Date() })
    .where("id", "=", clientId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// ---------------------------------------------------------------------------------------------
// Versions

/** Writes one row of workflow_versions. */
export async function insertWorkflowVersion(
  db: Db,
  values: TWorkflowContentValues & {
    workflowId: string;
    version: number;
    actorType: string;
    actorId: string | null;
    restoredFrom: number | null;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto("workflowVersions")
    .values({ ...values, nodes: JSON.stringify(values.nodes), positions: JSON.stringify(values.positions) })
    .execute();
}

const READ_VERSION = prepared("workflows_read_version", (db, p: { workflowId: string; version: number }) =>
  db
    .selectFrom("workflowVersions")
    .selectAll()
    .where("workflowId", "=", p.workflowId)
    .where("version", "=", p.version),
);

/** Version `version` of workflow `workflowId`; undefined when there is none. */
export async function findWorkflowVersion(
  db: Db,
  workflowId: string,
  version: number,
): Promise<TWorkflowVersionRow | undefined> {
  const [row] = await READ_VERSION.run(db, { workflowId, version });
  return row;
}

const COUNT_VERSIONS = prepared("workflows_count_versions", (db, p: { workflowId: string }) =>
  db
    .selectFrom("workflowVersions")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("workflowId", "=", p.workflowId),
);

const LIST_VERSIONS = prepared(
  "workflows_list_versions",
  (db, p: { workflowId: string; limit: number; offset: number }) =>
    db
      .selectFrom("workflowVersions")
      .selectAll()
      .where("workflowId", "=", p.workflowId)
      .orderBy("version", "desc")
      .limit(p.limit)
      .offset(p.offset),
);

/** The number of versions of the workflow and one page of them, newest first (two statements, side by side). */
export async function listWorkflowVersionRows(
  db: Db,
  workflowId: string,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ total: number; rows: TWorkflowVersionRow[] }> {
  const [counted, rows] = await Promise.all([
    COUNT_VERSIONS.run(db, { workflowId }),
    LIST_VERSIONS.run(db, { workflowId, limit, offset }),
  ]);
  return { total: Number(counted[0]?.count ?? 0), rows };
}

// ---------------------------------------------------------------------------------------------
// Regression cases

const LIST_CASES = prepared("workflows_list_cases", (db, p: { workflowId: string }) =>
  db
    .selectFrom("workflowCases")
    .selectAll()
    .where("workflowId", "=", p.workflowId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc"),
);

/** The workflow's cases, oldest first (ids break ties). */
export async function listCaseRows(db: Db, workflowId: string): Promise<TWorkflowCaseRow[]> {
  return LIST_CASES.run(db, { workflowId });
}

/** Creates a case (createdAt from this process's clock). */
export async function insertCase(
  db: Db,
  values: Omit<TWorkflowCaseRow, "createdAt">,
): Promise<TWorkflowCaseRow> {
  return db
    .insertInto("workflowCases")
    .values({ ...values, createdAt: new Date() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes case `caseId` of workflow `workflowId`; whether there was one. */
export async function deleteCaseRow(db: Db, workflowId: string, caseId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("workflowCases")
    .where("id", "=", caseId)
    .where("workflowId", "=", workflowId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

// ---------------------------------------------------------------------------------------------
// What-if

/**
 * The app's newest decision records in `environment` (of `workflowId` when given), newest first
 * (verification ids break ties), at most `limit`, each with its session's creation time.
 */
export async function recentDecisions(
  db: Db,
  filter: { appId: string; environment: TEnvironment; workflowId?: string; limit: number },
) {
  let query = db
    .selectFrom("verificationDecisions as d")
    .innerJoin("verifications as v", "v.id", "d.verificationId")
    .select([
      "d.verificationId",
      "v.createdAt",
      "d.providerId",
      "d.loa",
      "d.claimsPresent",
      "d.outcome",
      "d.reasonCode",
      "d.path",
      "d.facts",
    ])
    .where("d.appId", "=", filter.appId)
    .where("d.environment", "=", filter.environment);
  if (filter.workflowId) query = query.where("d.workflowId", "=", filter.workflowId);
  return query
    .orderBy("d.decidedAt", "desc")
    .orderBy("d.verificationId", "desc")
    .limit(filter.limit)
    .execute();
}
