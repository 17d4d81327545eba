/**
 * What the operators' use cases read and write, on the data layer (lib/db/kysely.ts):
 * - operator accounts (users with isOperator) for createOperator (index.ts);
 * - the workspaces overview (workspaces.ts): one statement per page — the page of workspaces is
 *   cut first (`matched`, `page`), then each figure is one aggregate per workspace of the page
 *   (CROSS JOIN LATERAL), each on an index; the members and apps of one workspace.
 * Timestamps are set here (`createdAt` of a new row, `updatedAt` of every change).
 */
import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { DB } from "../db/generated/kysely/types";
import { likeLiteral, type Db } from "../db/kysely";
import type { TEnvironment } from "../environments";

// ---- operator accounts ----

/** The user of `email` with what createOperator checks, undefined when there is none. */
export async function readUserForOperator(
  db: Db,
  email: string,
): Promise<{ id: string; passwordHash: string; isOperator: boolean } | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "passwordHash", "isOperator"])
    .where("email", "=", email)
    .executeTakeFirst();
}

/** Makes user `id` an operator; whether the row was there. */
export async function setUserOperator(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ isOperator: true, updatedAt: new Date() })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Creates a user who is an operator; a taken email throws 23505. */
export async function insertOperatorUser(
  db: Db,
  values: { id: string; email: string; passwordHash: string },
): Promise<void> {
  const now = new Date();
  await db
    .insertInto("users")
    .values({ ...values, isOperator: true, createdAt: now, updatedAt: now })
    .execute();
}

// ---- the workspaces overview ----

/** Which workspaces: those `search` matches (every one without it), or the one of `id`. */
export type TWorkspaceMatch = { search?: string } | { id: string };

// search: the exact id, part of the name or of a member's email (any case, wildcards literal)
function matchCondition(
  eb: ExpressionBuilder<DB, "workspaces">,
  match: TWorkspaceMatch,
): Expression<SqlBool> {
  if ("id" in match) return eb("workspaces.id", "=", match.id);
  const search = match.search;
  if (!search) return eb.lit(true);
  const pattern = `%${likeLiteral(search)}%`;
  return eb.or([
    eb("workspaces.id", "=", search),
    eb("workspaces.name", "ilike", pattern),
    eb.exists(
      eb
        .selectFrom("memberships as m")
        .innerJoin("users as u", "u.id", "m.userId")
        .select(eb.lit(1).as("one"))
        .whereRef("m.workspaceId", "=", "workspaces.id")
        .where("u.email", "ilike", pattern),
    ),
  ]);
}

export interface TWorkspaceSummaryRow {
  id: string;
  name: string;
  createdAt: Date;
  /** how many workspaces matched (every row of the page carries it) */
  total: number;
  members: number;
  sandboxApps: number;
  productionApps: number;
  sessions: number;
  deliveries: number;
  dead: number;
}

/**
 * One page of the workspaces `match` selects, newest first (ids break ties), with their figures:
 * members, live apps per environment, and in `env` since `since` the sessions (untouched ones
 * left out) and event deliveries (dead ones apart; test deliveries left out).
 */
export async function readWorkspaceSummaries(
  db: Db,
  query: { match: TWorkspaceMatch; env: TEnvironment; since: Date; limit: number; offset: number },
): Promise<TWorkspaceSummaryRow[]> {
  const { env, since } = query;
  return db
    .with("matched", (qb) =>
      qb
        .selectFrom("workspaces")
        .select(["workspaces.id", "workspaces.name", "workspaces.createdAt"])
        .where((eb) => matchCondition(eb, query.match)),
    )
    .with("page", (qb) =>
      qb
        .selectFrom("matched")
        .selectAll()
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(query.limit)
        .offset(query.offset),
    )
    .selectFrom("page as p")
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("memberships as m")
        .select((m) => m.cast<number>(m.fn.countAll(), "integer").as("members"))
        .whereRef("m.workspaceId", "=", "p.id")
        .as("mem"),
    )
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("apps as a")
        .select((a) => [
          a
            .cast<number>(a.fn.countAll().filterWhere("a.environment", "=", "sandbox"), "integer")
            .as("sandboxApps"),
          a
            .cast<number>(a.fn.countAll().filterWhere("a.environment", "=", "production"), "integer")
            .as("productionApps"),
        ])
        .whereRef("a.workspaceId", "=", "p.id")
        .where("a.deletedAt", "is", null)
        .as("ap"),
    )
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("verifications as v")
        .select((v) => v.cast<number>(v.fn.countAll(), "integer").as("sessions"))
        .whereRef("v.workspaceId", "=", "p.id")
        .where("v.environment", "=", env)
        .where("v.createdAt", ">=", since)
        .where("v.untouched", "=", false)
        .as("ses"),
    )
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("apps as a")
        .innerJoin("webhookDeliveries as d", "d.appId", "a.id")
        .select((d) => [
          d.cast<number>(d.fn.countAll(), "integer").as("deliveries"),
          d.cast<number>(d.fn.countAll().filterWhere("d.status", "=", "dead"), "integer").as("dead"),
        ])
        .whereRef("a.workspaceId", "=", "p.id")
        .where("a.environment", "=", env)
        .where("d.createdAt", ">=", since)
        .where("d.eventId", "is not", null)
        .as("wh"),
    )
    .select((eb) => [
      "p.id",
      "p.name",
      "p.createdAt",
      eb
        .cast<number>(
          eb.selectFrom("matched").select((m) => m.fn.countAll().as("n")),
          "integer",
        )
        .as("total"),
      "mem.members",
      "ap.sandboxApps",
      "ap.productionApps",
      "ses.sessions",
      "wh.deliveries",
      "wh.dead",
    ])
    .orderBy("p.createdAt", "desc")
    .orderBy("p.id", "desc")
    .execute();
}

/** How many workspaces `match` selects (the total when a page past the end carries none). */
export async function countWorkspaces(db: Db, match: TWorkspaceMatch): Promise<number> {
  const { n } = await db
    .selectFrom("workspaces")
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n"))
    .where((eb) => matchCondition(eb, match))
    .executeTakeFirstOrThrow();
  return n;
}

/** The workspace's members with their accounts, the earliest first (user ids break ties). */
export async function readWorkspaceMembers(db: Db, workspaceId: string) {
  return db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["u.id", "u.email", "u.name", "m.role", "m.createdAt"])
    .where("m.workspaceId", "=", workspaceId)
    .orderBy("m.createdAt", "asc")
    .orderBy("m.userId", "asc")
    .execute();
}

/**
 * The workspace's live apps in `env`, newest first (ids break ties), each with its custom
 * domain's status (null without one) and its providers, the earliest added first.
 */
export async function readWorkspaceApps(db: Db, workspaceId: string, env: TEnvironment) {
  const apps = await db
    .selectFrom("apps as a")
    .leftJoin("customDomains as c", "c.appId", "a.id")
    .select(["a.id", "a.name", "a.createdAt", "c.status as customDomainStatus"])
    .where("a.workspaceId", "=", workspaceId)
    .where("a.environment", "=", env)
    .where("a.deletedAt", "is", null)
    .orderBy("a.createdAt", "desc")
    .orderBy("a.id", "desc")
    .execute();
  const providers = apps.length
    ? await db
        .selectFrom("appProviders")
        .select(["appId", "providerId", "status", "enabled", "activatedAt", "currentTicketId"])
        .where(
          "appId",
          "in",
          apps.map((a) => a.id),
        )
        .orderBy("createdAt", "asc")
        .execute()
    : [];
  return apps.map((app) => ({
    ...app,
    providers: providers.filter((p) => p.appId === app.id),
  }));
}
