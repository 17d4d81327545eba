/**
 * Production-test challenges and their participations, on the data layer (lib/db/kysely.ts);
 * requests are ./requests.ts, whose rules of rows hold here too (json columns written as JSON
 * text, SQL NULL when absent; timestamps set here). The lock of a challenge
 * (the participations' serialization, ../participation.ts) reads it with its request's payload
 * and workspace and its app's environment in one statement and locks only the challenge row.
 * The reads of every request and of a session's outcome are `prepared`.
 */
import type { Selectable } from "kysely";
import { prepared, type Db, type DB } from "../../db/kysely";
import type { TChallengeRow } from "./requests";

/** A row of production_test_participations. */
export type TParticipationRow = Selectable<DB["productionTestParticipations"]>;

// ---------------------------------------------------------------------------------------------
// Challenges

/** Creates the challenge of a request (createdAt set here). */
export async function insertChallenge(
  db: Db,
  values: {
    id: string;
    requestId: string;
    appId: string;
    title: string;
    description: string | null;
    challengeMode: string;
    sponsor: unknown;
    sources: unknown;
    expiresAt: Date;
  },
): Promise<TChallengeRow> {
  return db
    .insertInto("productionTestChallenges")
    .values({
      ...values,
      // SQL NULL when absent, else the JSON document
      sponsor: values.sponsor == null ? null : JSON.stringify(values.sponsor),
      sources: values.sources == null ? null : JSON.stringify(values.sources),
      createdAt: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const APP_CHALLENGE = prepared(
  "production_tests_app_challenge",
  (db, p: { challengeId: string; appId: string }) =>
    db
      .selectFrom("productionTestChallenges as c")
      .innerJoin("productionTestRequests as r", "r.id", "c.requestId")
      .selectAll("c")
      .select("r.payload")
      .where("c.id", "=", p.challengeId)
      .where("c.appId", "=", p.appId),
);

/** Challenge `challengeId` of app `appId` with its request's payload; undefined when none. */
export async function readAppChallenge(
  db: Db,
  appId: string,
  challengeId: string,
): Promise<(TChallengeRow & { request: { payload: unknown } }) | undefined> {
  const [row] = await APP_CHALLENGE.run(db, { challengeId, appId });
  if (!row) return undefined;
  const { payload, ...challenge } = row;
  return { ...challenge, request: { payload } };
}

const LOCK_CHALLENGE = prepared("production_tests_lock_challenge", (db, p: { challengeId: string }) =>
  db
    .selectFrom("productionTestChallenges as c")
    .innerJoin("productionTestRequests as r", "r.id", "c.requestId")
    .innerJoin("apps as a", "a.id", "r.appId")
    .selectAll("c")
    .select(["r.payload", "r.workspaceId", "a.environment"])
    .where("c.id", "=", p.challengeId)
    .forUpdate("c"),
);

/**
 * Locks challenge `challengeId` until the transaction ends (only its row) and reads it with its
 * request's payload and workspace and its app's environment; undefined when there is none.
 */
export async function lockChallengeRow(db: Db, challengeId: string) {
  const [row] = await LOCK_CHALLENGE.run(db, { challengeId });
  if (!row) return undefined;
  const { payload, workspaceId, environment, ...challenge } = row;
  return { ...challenge, request: { payload, workspaceId, app: { environment } } };
}

/** Marks challenge `id` completed at `at`. */
export async function setChallengeCompleted(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable("productionTestChallenges").set({ completedAt: at }).where("id", "=", id).execute();
}

// ---------------------------------------------------------------------------------------------
// Participations

const PARTICIPATION = prepared("production_tests_participation", (db, p: { id: string }) =>
  db.selectFrom("productionTestParticipations").selectAll().where("id", "=", p.id),
);

/** Participation `id`; undefined when there is none. */
export async function readParticipation(db: Db, id: string): Promise<TParticipationRow | undefined> {
  const [row] = await PARTICIPATION.run(db, { id });
  return row;
}

const PARTICIPATION_OF_VERIFICATION = prepared(
  "production_tests_participation_of_verification",
  (db, p: { challengeId: string; verificationId: string }) =>
    db
      .selectFrom("productionTestParticipations")
      .selectAll()
      .where("challengeId", "=", p.challengeId)
      .where("verificationId", "=", p.verificationId)
      .limit(1),
);

/** The participation of verification `verificationId` in the challenge; undefined when none. */
export async function readParticipationOfVerification(
  db: Db,
  challengeId: string,
  verificationId: string,
): Promise<TParticipationRow | undefined> {
  const [row] = await PARTICIPATION_OF_VERIFICATION.run(db, { challengeId, verificationId });
  return row;
}

/** Records a participation (createdAt set here). */
export async function insertParticipation(
  db: Db,
  values: {
    id: string;
    challengeId: string;
    verificationId: string | null;
    providerId: string;
    successful: boolean;
  },
): Promise<TParticipationRow> {
  return db
    .insertInto("productionTestParticipations")
    .values({ ...values, createdAt: new Date() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const COUNT_CLAIMED = prepared("production_tests_count_claimed", (db, p: { challengeId: string }) =>
  db
    .selectFrom("productionTestParticipations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("challengeId", "=", p.challengeId)
    .where("claimed", "=", true),
);

/** How many participations of the challenge have claimed a stamp. */
export async function countClaimed(db: Db, challengeId: string): Promise<number> {
  const [row] = await COUNT_CLAIMED.run(db, { challengeId });
  return Number(row?.n ?? 0);
}

/** Marks participation `id` as having claimed its stamp. */
export async function setParticipationClaimed(db: Db, id: string): Promise<void> {
  await db.updateTable("productionTestParticipations").set({ claimed: true }).where("id", "=", id).execute();
}

const PARTICIPATION_GROUPS = prepared(
  "production_tests_participation_groups",
  (db, p: { challengeId: string }) =>
    db
      .selectFrom("productionTestParticipations")
      .select(["providerId", "claimed"])
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("challengeId", "=", p.challengeId)
      .groupBy(["providerId", "claimed"]),
);

/** The challenge's participations counted by (provider, claimed), in one statement. */
export async function countParticipationGroups(
  db: Db,
  challengeId: string,
): Promise<{ providerId: string; claimed: boolean; count: number }[]> {
  return (await PARTICIPATION_GROUPS.run(db, { challengeId })).map(({ n, ...group }) => ({
    ...group,
    count: Number(n),
  }));
}

type TParticipationFilter = { challengeId: string; claimed: boolean };

const participationsOf = (db: Db, p: TParticipationFilter, byClaimed: boolean) => {
  const query = db.selectFrom("productionTestParticipations").where("challengeId", "=", p.challengeId);
  return byClaimed ? query.where("claimed", "=", p.claimed) : query;
};

const participationCount = (byClaimed: boolean) =>
  prepared(
    `production_tests_participations_count${byClaimed ? "_claimed" : ""}`,
    (db, p: TParticipationFilter) =>
      participationsOf(db, p, byClaimed).select((eb) => eb.fn.countAll<string>().as("n")),
  );

const participationPage = (byClaimed: boolean) =>
  prepared(
    `production_tests_participations_page${byClaimed ? "_claimed" : ""}`,
    (db, p: TParticipationFilter & { limit: number; offset: number }) =>
      participationsOf(db, p, byClaimed)
        .selectAll()
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(p.limit)
        .offset(p.offset),
  );

const PARTICIPATION_COUNT = { all: participationCount(false), claimed: participationCount(true) };
const PARTICIPATION_PAGE = { all: participationPage(false), claimed: participationPage(true) };

/**
 * A page of the challenge's participations, newest first, and how many there are; `claimed`
 * narrows to the claimed (true) or unclaimed (false) ones.
 */
export async function pageParticipations(
  db: Db,
  challengeId: string,
  { claimed, limit, offset }: { claimed?: boolean; limit: number; offset: number },
): Promise<{ total: number; rows: TParticipationRow[] }> {
  const which = claimed === undefined ? "all" : "claimed";
  const filter = { challengeId, claimed: claimed ?? false };
  const [[count], rows] = await Promise.all([
    PARTICIPATION_COUNT[which].run(db, filter),
    PARTICIPATION_PAGE[which].run(db, { ...filter, limit, offset }),
  ]);
  return { total: Number(count?.n ?? 0), rows };
}
