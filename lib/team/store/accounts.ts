/**
 * The console accounts as the team's flows use them (users, password-reset links, pending
 * sign-ups), on the data layer (lib/db/kysely.ts).
 */
import { prepared, type Db } from "../../db/kysely";

/** Whether `err` is PostgreSQL's unique violation. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && "code" in err && err.code === "23505";
}

const USER_BY_EMAIL = prepared("team_user_by_email", (db, p: { email: string }) =>
  db.selectFrom("users").select(["id", "email", "name", "passwordHash"]).where("email", "=", p.email),
);

/** The account of `email`, undefined when there is none. */
export async function readUserByEmail(
  db: Db,
  email: string,
): Promise<{ id: string; email: string; name: string | null; passwordHash: string } | undefined> {
  const [row] = await USER_BY_EMAIL.run(db, { email });
  return row;
}

const USER_BY_ID = prepared("team_user_by_id", (db, p: { id: string }) =>
  db.selectFrom("users").select(["id", "email", "name", "passwordHash"]).where("id", "=", p.id),
);

export async function readUserById(
  db: Db,
  id: string,
): Promise<{ id: string; email: string; name: string | null; passwordHash: string } | undefined> {
  const [row] = await USER_BY_ID.run(db, { id });
  return row;
}

/** Creates an account (timestamps set here); a taken email throws 23505. */
export async function insertUser(
  db: Db,
  values: { id: string; email: string; name: string | null; passwordHash: string },
): Promise<void> {
  const now = new Date();
  await db
    .insertInto("users")
    .values({ ...values, createdAt: now, updatedAt: now })
    .execute();
}

export async function setUserName(db: Db, id: string, name: string): Promise<void> {
  await db.updateTable("users").set({ name, updatedAt: new Date() }).where("id", "=", id).execute();
}

/** The user's account and workspaces (the earliest membership first), for GET /v1/me. */
export async function readUserWithWorkspaces(db: Db, id: string) {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "name"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!user) return undefined;
  const memberships = await db
    .selectFrom("memberships as m")
    .innerJoin("workspaces as w", "w.id", "m.workspaceId")
    .select(["m.role", "w.id as workspaceId", "w.name"])
    .where("m.userId", "=", id)
    .orderBy("m.createdAt", "asc")
    .execute();
  return { ...user, memberships };
}

// ---- password-reset links ----

export async function deleteUnusedPasswordResets(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("passwordResets").where("userId", "=", userId).where("usedAt", "is", null).execute();
}

export async function insertPasswordReset(
  db: Db,
  values: { id: string; userId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insertInto("passwordResets").values(values).execute();
}

const RESET_BY_TOKEN = prepared("team_password_reset_by_token", (db, p: { tokenHash: string }) =>
  db
    .selectFrom("passwordResets as r")
    .innerJoin("users as u", "u.id", "r.userId")
    .select(["r.id", "r.userId", "r.expiresAt", "r.usedAt", "u.email"])
    .where("r.tokenHash", "=", p.tokenHash),
);

/** The link of a token's hash with its user's email, undefined when there is none. */
export async function readPasswordResetByToken(db: Db, tokenHash: string) {
  const [row] = await RESET_BY_TOKEN.run(db, { tokenHash });
  return row;
}

/** Marks the link used if it is still usable at `now`: whether it did. */
export async function claimPasswordReset(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("passwordResets")
    .set({ usedAt: now })
    .where("id", "=", id)
    .where("usedAt", "is", null)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// ---- pending sign-ups ----

export async function insertSignupRequest(
  db: Db,
  values: {
    id: string;
    email: string;
    name: string | null;
    workspaceName: string;
    passwordHash: string;
    tokenHash: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insertInto("signupRequests").values(values).execute();
}

const SIGNUP_BY_TOKEN = prepared("team_signup_by_token", (db, p: { tokenHash: string }) =>
  db.selectFrom("signupRequests").selectAll().where("tokenHash", "=", p.tokenHash),
);

export async function readSignupRequestByToken(db: Db, tokenHash: string) {
  const [row] = await SIGNUP_BY_TOKEN.run(db, { tokenHash });
  return row;
}

/** Marks the sign-up confirmed if it still may be at `now`: whether it did. */
export async function claimSignupRequest(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("signupRequests")
    .set({ confirmedAt: now })
    .where("id", "=", id)
    .where("confirmedAt", "is", null)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// ---- housekeeping (lib/team/link-purge.ts) ----

/** Deletes at most `limit` password-reset links that expired before `before`: how many. */
export async function deleteExpiredPasswordResets(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("passwordResets")
    .where("id", "in", (eb) =>
      eb.selectFrom("passwordResets").select("id").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes at most `limit` pending sign-ups that expired before `before`: how many. */
export async function deleteExpiredSignupRequests(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("signupRequests")
    .where("id", "in", (eb) =>
      eb.selectFrom("signupRequests").select("id").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
