/**
 * The credentials' tables on the data layer (lib/db/kysely.ts): an app's credential (apps), a
 * workspace API key (api_keys), a console session's user, membership and revocation (users,
 * memberships, revoked_sessions). Every read here runs on every request of its kind: prepared
 * (named) statements, one per request.
 */
import { sql, type AliasableExpression, type SelectType } from "kysely";
import { nowUtc } from "../db/timestamps";
import { prepared, type Db } from "../db/kysely";

// ---------------------------------------------------------------------------------------------
// App credentials (app-credentials.ts)

const CREDENTIAL_COLUMNS = ["id", "workspaceId", "environment", "clientSecretHash", "deletedAt"] as const;

const APP_CREDENTIAL = prepared("auth_app_credential", (db, p: { clientId: string }) =>
  db.selectFrom("apps").select(CREDENTIAL_COLUMNS).where("id", "=", p.clientId),
);

/** The app's credential by client id (undefined: no such app). */
export async function readAppCredential(db: Db, clientId: string) {
  const [row] = await APP_CREDENTIAL.run(db, { clientId });
  return row;
}

/** An app's credential row. */
export type TAppCredential = NonNullable<Awaited<ReturnType<typeof readAppCredential>>>;

/**
 * A value JSON carries as it is (a row read with the credential travels as JSON): no Date (a
 * timestamp is selected as epoch milliseconds, lib/db/timestamps.ts), and objects only of such
 * values.
 */
export type TJsonSafe =
  string | number | boolean | null | readonly TJsonSafe[] | { readonly [key: string]: TJsonSafe };

/** A row of `O` as a statement returns it (Kysely's type of a selected value). */
export type TJsonRow<O> = SelectType<O>;

/**
 * The statement `name`: the credential of a client id and, as a subquery of the app's row, the
 * row `row` reads by `id` (at most one: its primary key) as one JSON object (`jsonBuildObject`,
 * whose keys are the row's names as written: the data layer maps only a result row's own
 * columns); null when there is none, and the credential is still read. The row's query must not
 * name the client id (a condition on it would let the planner pick the owner's index and scan
 * all of a large app's rows for one key).
 */
export function credentialWithRow<O extends Record<keyof O, TJsonSafe>>(
  name: string,
  row: (db: Db, id: string) => AliasableExpression<O | null>,
) {
  const statement = prepared(name, (db, p: { clientId: string; id: string }) =>
    db
      .selectFrom("apps")
      .select(CREDENTIAL_COLUMNS)
      .select(row(db, p.id).as("row"))
      .where("id", "=", p.clientId),
  );
  /** The credential (null: no such app) and the row (null: none). */
  return async (db: Db, clientId: string, id: string) => {
    const [found] = await statement.run(db, { clientId, id });
    if (!found) return { credential: null, row: null };
    const { row: json, ...credential } = found;
    return { credential, row: json };
  };
}

// ---------------------------------------------------------------------------------------------
// Workspace API keys (workspace-keys.ts)

const KEY_BY_HASH = prepared("auth_workspace_key", (db, p: { keyHash: string }) =>
  db
    .selectFrom("apiKeys")
    .select(["id", "kind", "name", "workspaceId", "environment", "keyHash", "revokedAt"])
    .where("keyHash", "=", p.keyHash),
);

/** The API key of hash `keyHash` (undefined: none). */
export async function readKeyByHash(db: Db, keyHash: string) {
  const [row] = await KEY_BY_HASH.run(db, { keyHash });
  return row;
}

/** Records a key's use at `at` (at most once a minute per key: workspace-keys.ts). */
export async function touchKeyLastUsed(db: Db, keyId: string, at: Date): Promise<void> {
  await db.updateTable("apiKeys").set({ lastUsedAt: at }).where("id", "=", keyId).execute();
}

// ---------------------------------------------------------------------------------------------
// Console sessions (sessions.ts, console-session.ts)

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
