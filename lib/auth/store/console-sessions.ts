/**
 * Console sessions on the data layer (lib/db/kysely.ts): the sign-in's user, the session's user,
 * membership and revocation (users, memberships, revoked_sessions), a console page's member and
 * the end of every session of a user. The reads on every request or page of the console are
 * prepared (named) statements, one per request.
 */
import { sql } from "kysely";
import { jsonArrayFrom, jsonBuildObject } from "kysely/helpers/postgres";
import { prepared, type Db } from "../../db/kysely";
import { nowUtc } from "../../db/timestamps";

const SESSION_USER = prepared("auth_console_session_user", (db, p: { userId: string; sid: string }) =>
  db
    .selectFrom("users as u")
    .select((eb) => [
      "u.id",
      "u.email",
      "u.name",
      "u.isOperator",
      "u.sessionsValidFrom",
      eb
        .cast<boolean>(
          eb.exists(eb.selectFrom("revokedSessions as r").select("r.sid").where("r.sid", "=", p.sid)),
          "boolean",
        )
        .as("revoked"),
      eb
        .selectFrom("memberships as m")
        .select((m) => m.cast<number>(m.fn.countAll(), "integer").as("n"))
        .whereRef("m.userId", "=", "u.id")
        .$asScalar()
        .as("memberships"),
    ])
    .where("u.id", "=", p.userId),
);

/** The session's user, whether its sid is revoked, and how many workspaces the user is in. */
export async function readSessionUser(db: Db, userId: string, sid: string) {
  const [row] = await SESSION_USER.run(db, { userId, sid });
  return row;
}

const SESSION_MEMBER = prepared(
  "auth_console_session_member",
  (db, p: { userId: string; sid: string; workspaceId: string | null }) =>
    db
      .selectFrom("users as u")
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom("memberships")
            .select(["workspaceId", "role"])
            .whereRef("userId", "=", "u.id")
            .where((m) =>
              m.or([
                m(m.cast(m.val(p.workspaceId), "text"), "is", null),
                m("workspaceId", "=", p.workspaceId),
              ]),
            )
            .orderBy("createdAt", "asc")
            .limit(sql.lit(1))
            .as("m"),
        (join) => join.onTrue(),
      )
      .select((eb) => [
        "u.id",
        "u.email",
        "u.name",
        "u.sessionsValidFrom",
        eb
          .cast<boolean>(
            eb.exists(eb.selectFrom("revokedSessions as r").select("r.sid").where("r.sid", "=", p.sid)),
            "boolean",
          )
          .as("revoked"),
        "m.workspaceId",
        "m.role",
      ])
      .where("u.id", "=", p.userId),
);

/**
 * The API's per-request read of a session: the user, whether the session's sid is revoked, and
 * the membership (in `workspaceId`, else the oldest; null columns: none).
 */
export async function readSessionMember(db: Db, userId: string, sid: string, workspaceId: string | null) {
  const [row] = await SESSION_MEMBER.run(db, { userId, sid, workspaceId });
  return row;
}

// expired revocations go first, a bounded batch per sign-out (sign-outs are rare, the rows few)
const REVOKE_SESSION = prepared(
  "auth_revoke_console_session",
  (db, p: { sid: string; userId: string; expiresAt: Date }) =>
    db
      .with("purged", (qc) =>
        qc
          .deleteFrom("revokedSessions")
          .where("sid", "in", (eb) =>
            eb
              .selectFrom("revokedSessions")
              .select("sid")
              .where("expiresAt", "<", nowUtc)
              .limit(sql.lit(1000)),
          ),
      )
      .insertInto("revokedSessions")
      .values({ sid: p.sid, userId: p.userId, expiresAt: p.expiresAt })
      .onConflict((oc) => oc.column("sid").doNothing()),
);

/** Records the sign-out of session `sid`, refused until `expiresAt`; purges expired ones first. */
export async function insertRevokedSession(
  db: Db,
  revoked: { sid: string; userId: string; expiresAt: Date },
): Promise<void> {
  await REVOKE_SESSION.run(db, revoked);
}

const CONSOLE_MEMBER = prepared("auth_console_member", (db, p: { userId: string; sid: string }) =>
  db
    .selectFrom("users as u")
    .select((eb) => [
      "u.id",
      "u.email",
      "u.name",
      "u.sessionsValidFrom",
      "u.isOperator",
      eb
        .cast<boolean>(
          eb.exists(eb.selectFrom("revokedSessions as r").select("r.sid").where("r.sid", "=", p.sid)),
          "boolean",
        )
        .as("revoked"),
      jsonArrayFrom(
        eb
          .selectFrom("memberships as m")
          .innerJoin("workspaces as w", "w.id", "m.workspaceId")
          .select((me) =>
            jsonBuildObject({
              role: me.ref("m.role"),
              workspaceId: me.ref("w.id"),
              name: me.ref("w.name"),
            }).as("o"),
          )
          .whereRef("m.userId", "=", "u.id")
          .orderBy("m.createdAt", "asc"),
      ).as("memberships"),
    ])
    .where("u.id", "=", p.userId),
);

/**
 * A console page's first read of its user: the user, whether the session's sid is revoked, and
 * the user's memberships with their workspaces, the oldest first (undefined: no such user).
 */
export async function readConsoleMember(db: Db, userId: string, sid: string) {
  const [row] = await CONSOLE_MEMBER.run(db, { userId, sid });
  if (!row) return undefined;
  return { ...row, memberships: row.memberships.map(({ o }) => o) };
}

/**
 * Ends every console session of user `userId` at `at` (`sessionsValidFrom`), setting its
 * password hash too when given: whether the user exists.
 */
export async function endUserSessions(
  db: Db,
  userId: string,
  at: Date,
  extra: { passwordHash?: string } = {},
): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({
      ...(extra.passwordHash !== undefined ? { passwordHash: extra.passwordHash } : {}),
      sessionsValidFrom: at,
      updatedAt: at,
    })
    .where("id", "=", userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// ---------------------------------------------------------------------------------------------
// Sign-in (sign-in.ts)

const SIGN_IN_USER = prepared("auth_sign_in_user", (db, p: { email: string }) =>
  db
    .selectFrom("users")
    .select(["id", "email", "name", "passwordHash", "isOperator"])
    .where("email", "=", p.email),
);

/** The account of `email` (normalized) with its password hash; undefined when there is none. */
export async function readSignInUser(db: Db, email: string) {
  const [row] = await SIGN_IN_USER.run(db, { email });
  return row;
}

/** Records a successful sign-in of user `userId` at `at`: whether the user exists. */
export async function recordSignIn(db: Db, userId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ lastSignInAt: at, updatedAt: at })
    .where("id", "=", userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
