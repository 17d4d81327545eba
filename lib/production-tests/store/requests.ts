/**
 * Production-test requests, with their challenge, on the data layer (lib/db/kysely.ts); the
 * challenges themselves and their participations are ./challenges.ts. The rules are the
 * services' (../service.ts, ../participation.ts, ../sessions.ts, lib/operators/production-tests.ts);
 * this module only reads and writes.
 * Rules of its rows:
 * - rows are the generated row types; json columns (a request's `payload`, a challenge's
 *   `sponsor` and `sources`) are `unknown`, checked by their readers (../serialize.ts), and
 *   written as JSON text (an array would otherwise go out as a PostgreSQL array); SQL NULL stays
 *   null;
 * - a request's challenge (none until scheduled) is read in the same statement as one JSON
 *   object (`jsonObjectFrom`, key `c`), its timestamps as epoch milliseconds
 *   (lib/db/timestamps.ts) made Dates here;
 * - timestamps are set here (`createdAt` of a new row, `updatedAt` of every
 *   change: @updatedAt), from this process's clock;
 * - the reads of every request are `prepared`; a filter that may be absent is a statement of its
 *   own (one plan each).
 */
import type { ExpressionBuilder, Selectable } from "kysely";
import { jsonBuildObject, jsonObjectFrom } from "kysely/helpers/postgres";
import type { Environment } from "../../db/generated/kysely/types";
import { prepared, type Db, type DB } from "../../db/kysely";
import { epochMs, epochMsOrNull, fromEpochMs, fromEpochMsOrNull } from "../../db/timestamps";

/** A row of production_test_requests. */
export type TRequestRow = Selectable<DB["productionTestRequests"]>;
/** A row of production_test_challenges. */
export type TChallengeRow = Selectable<DB["productionTestChallenges"]>;

/** A request with its challenge (null until scheduled). */
export type TRequestWithChallenge = TRequestRow & { challenge: TChallengeRow | null };

// ---------------------------------------------------------------------------------------------
// A request's challenge, as JSON in the request's statement

type TRequestsEb = ExpressionBuilder<DB & { r: DB["productionTestRequests"] }, "r">;

/** The challenge of request `r` as one JSON object (`c`), null when it has none. */
const challengeOf = (eb: TRequestsEb) =>
  jsonObjectFrom(
    eb
      .selectFrom("productionTestChallenges as c")
      .select((ce) =>
        jsonBuildObject({
          id: ce.ref("c.id"),
          requestId: ce.ref("c.requestId"),
          appId: ce.ref("c.appId"),
          title: ce.ref("c.title"),
          description: ce.ref("c.description"),
          challengeMode: ce.ref("c.challengeMode"),
          sponsor: ce.ref("c.sponsor"),
          sources: ce.ref("c.sources"),
          expiresAtMs: epochMs(ce.ref("c.expiresAt")),
          completedAtMs: epochMsOrNull(ce.ref("c.completedAt")),
          createdAtMs: epochMs(ce.ref("c.createdAt")),
        }).as("c"),
      )
      .whereRef("c.requestId", "=", "r.id"),
  ).as("challenge");

type TChallengeJsonRow = Omit<TChallengeRow, "expiresAt" | "completedAt" | "createdAt"> & {
  expiresAtMs: number;
  completedAtMs: number | null;
  createdAtMs: number;
};

function challengeRow(json: { c: TChallengeJsonRow } | null): TChallengeRow | null {
  if (!json) return null;
  const { expiresAtMs, completedAtMs, createdAtMs, ...challenge } = json.c;
  return {
    ...challenge,
    expiresAt: fromEpochMs(expiresAtMs),
    completedAt: fromEpochMsOrNull(completedAtMs),
    createdAt: fromEpochMs(createdAtMs),
  };
}

function withChallenge<R extends TRequestRow>(
  row: R & { challenge: { c: TChallengeJsonRow } | null },
): R & { challenge: TChallengeRow | null } {
  return { ...row, challenge: challengeRow(row.challenge) };
}

const REQUEST_COLUMNS = [
  "r.id",
  "r.appId",
  "r.workspaceId",
  "r.status",
  "r.payload",
  "r.failureReason",
  "r.createdAt",
  "r.updatedAt",
] as const;

// ---------------------------------------------------------------------------------------------
// Requests

/** The providers among `providerIds` that are activated for app `appId`. */
const ACTIVATED_PROVIDERS = prepared(
  "production_tests_activated_providers",
  (db, p: { appId: string; providerIds: string[] }) =>
    db
      .selectFrom("appProviders")
      .select("providerId")
      .where("appId", "=", p.appId)
      .where((eb) => eb("providerId", "=", eb.fn.any(eb.val(p.providerIds))))
      .where("status", "=", "activated"),
);

export async function activatedProviderIds(db: Db, appId: string, providerIds: string[]): Promise<string[]> {
  return (await ACTIVATED_PROVIDERS.run(db, { appId, providerIds })).map((row) => row.providerId);
}

/** Creates a pending request (timestamps set here); it has no challenge yet. */
export async function insertRequest(
  db: Db,
  values: { id: string; appId: string; workspaceId: string; payload: unknown },
): Promise<TRequestWithChallenge> {
  const now = new Date();
  const row = await db
    .insertInto("productionTestRequests")
    .values({
      id: values.id,
      appId: values.appId,
      workspaceId: values.workspaceId,
      status: "pending",
      payload: JSON.stringify(values.payload),
      createdAt: now,
      updatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, challenge: null };
}

const APP_REQUESTS = prepared("production_tests_app_requests", (db, p: { appId: string }) =>
  db
    .selectFrom("productionTestRequests as r")
    .select(REQUEST_COLUMNS)
    .select((eb) => challengeOf(eb))
    .where("r.appId", "=", p.appId)
    .orderBy("r.createdAt", "desc")
    .orderBy("r.id", "desc"),
);

/** Every request of app `appId` with its challenge, newest first. */
export async function listAppRequests(db: Db, appId: string): Promise<TRequestWithChallenge[]> {
  return (await APP_REQUESTS.run(db, { appId })).map(withChallenge);
}

/** A request as operators read it: with its challenge and what they see of its app. */
export type TOperatorRequestRow = TRequestWithChallenge & {
  app: { id: string; name: string; workspaceId: string; environment: Environment; deletedAt: Date | null };
};

const OPERATOR_REQUEST = prepared("production_tests_operator_request", (db, p: { requestId: string }) =>
  db
    .selectFrom("productionTestRequests as r")
    .innerJoin("apps as a", "a.id", "r.appId")
    .select(REQUEST_COLUMNS)
    .select((eb) => challengeOf(eb))
    .select([
      "a.name as appName",
      "a.workspaceId as appWorkspaceId",
      "a.environment as appEnvironment",
      "a.deletedAt as appDeletedAt",
    ])
    .where("r.id", "=", p.requestId),
);

/** Request `requestId` with its challenge and app, deleted or not; undefined when there is none. */
export async function readOperatorRequest(
  db: Db,
  requestId: string,
): Promise<TOperatorRequestRow | undefined> {
  const [row] = await OPERATOR_REQUEST.run(db, { requestId });
  if (!row) return undefined;
  const { appName, appWorkspaceId, appEnvironment, appDeletedAt, ...request } = row;
  return {
    ...withChallenge(request),
    app: {
      id: request.appId,
      name: appName,
      workspaceId: appWorkspaceId,
      environment: appEnvironment,
      deletedAt: appDeletedAt,
    },
  };
}

/**
 * Moves request `id` to `status` if it is still in `from` (waits for a concurrent mover's commit,
 * then matches nothing): whether this call moved it.
 */
export async function moveRequestStatus(
  db: Db,
  id: string,
  from: string,
  change: { status: string; failureReason?: string },
): Promise<boolean> {
  const result = await db
    .updateTable("productionTestRequests")
    .set({ ...change, updatedAt: new Date() })
    .where("id", "=", id)
    .where("status", "=", from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The status of request `id`; undefined when there is none. */
export async function readRequestStatus(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("productionTestRequests")
    .select("status")
    .where("id", "=", id)
    .executeTakeFirst();
  return row?.status;
}

export interface TOperatorListParams {
  status: string;
  environment: Environment;
  /** one app's requests only; null: every app's */
  clientId: string | null;
  limit: number;
  offset: number;
}

type TOperatorListFilter = Omit<TOperatorListParams, "limit" | "offset">;

// the requests of one status in the environment, of apps not deleted (`byApp`: `clientId`'s only);
// `p` holds the placeholders of `prepared` (a proxy: read its keys, never spread it)
const operatorRequests = (db: Db, p: TOperatorListFilter, byApp: boolean) => {
  const query = db
    .selectFrom("productionTestRequests as r")
    .innerJoin("apps as a", "a.id", "r.appId")
    .where("r.status", "=", p.status)
    .where("a.environment", "=", p.environment)
    .where("a.deletedAt", "is", null);
  return byApp ? query.where("r.appId", "=", p.clientId) : query;
};

const operatorCount = (byApp: boolean) =>
  prepared(`production_tests_operator_count${byApp ? "_app" : ""}`, (db, p: TOperatorListFilter) =>
    operatorRequests(db, p, byApp).select((eb) => eb.fn.countAll<string>().as("n")),
  );

const operatorPage = (byApp: boolean, dir: "asc" | "desc") =>
  prepared(`production_tests_operator_page_${dir}${byApp ? "_app" : ""}`, (db, p: TOperatorListParams) =>
    operatorRequests(db, p, byApp)
      .select(REQUEST_COLUMNS)
      .select((eb) => challengeOf(eb))
      .select(["a.name as appName", "a.workspaceId as appWorkspaceId"])
      .orderBy("r.createdAt", dir)
      .orderBy("r.id", dir)
      .limit(p.limit)
      .offset(p.offset),
  );

const OPERATOR_COUNT = { all: operatorCount(false), app: operatorCount(true) };
const OPERATOR_PAGE = {
  asc: { all: operatorPage(false, "asc"), app: operatorPage(true, "asc") },
  desc: { all: operatorPage(false, "desc"), app: operatorPage(true, "desc") },
};

/** How many requests the operators' list has (see `listOperatorRequests`). */
export async function countOperatorRequests(db: Db, filter: TOperatorListFilter): Promise<number> {
  const [row] = await OPERATOR_COUNT[filter.clientId === null ? "all" : "app"].run(db, filter);
  return Number(row?.n ?? 0);
}

/**
 * A page of the operators' list: requests of one status in the environment, apps not deleted,
 * ordered by creation (`dir`), with their challenge and app.
 */
export async function listOperatorRequests(
  db: Db,
  params: TOperatorListParams,
  dir: "asc" | "desc",
): Promise<(TRequestWithChallenge & { app: { id: string; name: string; workspaceId: string } })[]> {
  const rows = await OPERATOR_PAGE[dir][params.clientId === null ? "all" : "app"].run(db, params);
  return rows.map(({ appName, appWorkspaceId, ...request }) => ({
    ...withChallenge(request),
    app: { id: request.appId, name: appName, workspaceId: appWorkspaceId },
  }));
}
