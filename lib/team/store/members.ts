/**
 * The memberships of a workspace (with their users' names), on the data layer (lib/db/kysely.ts):
 * the team page's reads and the role changes of lib/team/members.ts.
 */
import { prepared, type Db } from "../../db/kysely";

/** A member as the team page shows it. */
export interface TMemberRow {
  userId: string;
  role: string;
  createdAt: Date;
  user: { email: string; name: string | null; lastSignInAt: Date | null };
}

const MEMBER_COLUMNS = ["m.userId", "m.role", "m.createdAt", "u.email", "u.name", "u.lastSignInAt"] as const;

function toMember(row: {
  userId: string;
  role: string;
  createdAt: Date;
  email: string;
  name: string | null;
  lastSignInAt: Date | null;
}): TMemberRow {
  const { email, name, lastSignInAt, ...member } = row;
  return { ...member, user: { email, name, lastSignInAt } };
}

const LOCK_WORKSPACE = prepared("team_lock_workspace", (db, p: { workspaceId: string }) =>
  db.selectFrom("workspaces").select("id").where("id", "=", p.workspaceId).forUpdate(),
);

/** Locks the workspace's row until the transaction ends (serializes its team changes). */
export async function lockWorkspaceRow(db: Db, workspaceId: string): Promise<void> {
  await LOCK_WORKSPACE.run(db, { workspaceId });
}

const COUNT_MEMBERS = prepared("team_count_members", (db, p: { workspaceId: string }) =>
  db
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("workspaceId", "=", p.workspaceId),
);

const COUNT_OWNERS = prepared("team_count_owners", (db, p: { workspaceId: string }) =>
  db
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("workspaceId", "=", p.workspaceId)
    .where("role", "=", "owner"),
);

export async function countMembers(db: Db, workspaceId: string): Promise<number> {
  const [row] = await COUNT_MEMBERS.run(db, { workspaceId });
  return Number(row?.n ?? 0);
}

export async function countOwners(db: Db, workspaceId: string): Promise<number> {
  const [row] = await COUNT_OWNERS.run(db, { workspaceId });
  return Number(row?.n ?? 0);
}

const READ_MEMBER = prepared("team_read_member", (db, p: { workspaceId: string; userId: string }) =>
  db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(MEMBER_COLUMNS)
    .where("m.workspaceId", "=", p.workspaceId)
    .where("m.userId", "=", p.userId),
);

export async function readMember(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<TMemberRow | undefined> {
  const [row] = await READ_MEMBER.run(db, { workspaceId, userId });
  return row && toMember(row);
}

const LIST_MEMBERS = prepared(
  "team_list_members",
  (db, p: { workspaceId: string; limit: number; offset: number }) =>
    db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.userId")
      .select(MEMBER_COLUMNS)
      .where("m.workspaceId", "=", p.workspaceId)
      .orderBy("m.createdAt", "asc")
      .orderBy("m.userId", "asc")
      .limit(p.limit)
      .offset(p.offset),
);

/** A page of the workspace's members, the earliest first. */
export async function listMemberRows(
  db: Db,
  workspaceId: string,
  { limit, offset }: { limit: number; offset: number },
): Promise<TMemberRow[]> {
  return (await LIST_MEMBERS.run(db, { workspaceId, limit, offset })).map(toMember);
}

/** Sets the member's role: the member as it is now, or undefined when there is no such member. */
export async function updateMemberRole(
  db: Db,
  workspaceId: string,
  userId: string,
  role: string,
): Promise<TMemberRow | undefined> {
  const row = await db
    .with("m", (w) =>
      w
        .updateTable("memberships")
        .set({ role })
        .where("workspaceId", "=", workspaceId)
        .where("userId", "=", userId)
        .returning(["userId", "role", "createdAt"]),
    )
    .selectFrom("m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(MEMBER_COLUMNS)
    .executeTakeFirst();
  return row && toMember(row);
}

/** Deletes the membership: whether there was one. */
export async function deleteMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("memberships")
    .where("workspaceId", "=", workspaceId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The role of `userId` in the workspace, undefined when not a member. */
export async function readMembershipRole(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("memberships")
    .select("role")
    .where("workspaceId", "=", workspaceId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row?.role;
}

export async function insertMembership(
  db: Db,
  values: { workspaceId: string; userId: string; role: string },
): Promise<void> {
  await db
    .insertInto("memberships")
    .values({ ...values, createdAt: new Date() })
    .execute();
}

/** Whether the workspace has a member with this email. */
export async function hasMemberWithEmail(db: Db, workspaceId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select("m.userId")
    .where("m.workspaceId", "=", workspaceId)
    .where("u.email", "=", email)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ids of the workspaces `userId` is a member of. */
export async function workspaceIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("memberships")
    .select("workspaceId")
    .where("userId", "=", userId)
    .execute();
  return rows.map((r) => r.workspaceId);
}

/** The workspace's name and the emails of its owners (the role-change notice). */
export async function readWorkspaceOwners(
  db: Db,
  workspaceId: string,
): Promise<{ name: string; owners: { userId: string; email: string }[] } | undefined> {
  const workspace = await db
    .selectFrom("workspaces")
    .select("name")
    .where("id", "=", workspaceId)
    .executeTakeFirst();
  if (!workspace) return undefined;
  const owners = await db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["m.userId", "u.email"])
    .where("m.workspaceId", "=", workspaceId)
    .where("m.role", "=", "owner")
    .execute();
  return { name: workspace.name, owners };
}

/** The workspace's name, undefined when there is none. */
export async function readWorkspaceName(db: Db, workspaceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("workspaces")
    .select("name")
    .where("id", "=", workspaceId)
    .executeTakeFirst();
  return row?.name;
}

/** Creates a workspace (its timestamps set here). */
export async function insertWorkspace(db: Db, values: { id: string; name: string }): Promise<void> {
  const now = new Date();
  await db
    .insertInto("workspaces")
    .values({ ...values, createdAt: now, updatedAt: now })
    .execute();
}
