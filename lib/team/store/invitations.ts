/** The invitations table (lib/team/invitations.ts has the rules), on the data layer (lib/db/kysely.ts). */
import { prepared, type Db } from "../../db/kysely";

/** Revokes the pending invitations of `email`: how many. */
export async function revokePendingInvitations(
  db: Db,
  workspaceId: string,
  email: string,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable("invitations")
    .set({ revokedAt: now })
    .where("workspaceId", "=", workspaceId)
    .where("email", "=", email)
    .where("acceptedAt", "is", null)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertInvitation(
  db: Db,
  values: {
    id: string;
    workspaceId: string;
    email: string;
    role: string;
    tokenHash: string;
    createdById: string | null;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insertInto("invitations").values(values).execute();
}

const COUNT_PENDING = prepared(
  "team_count_pending_invitations",
  (db, p: { workspaceId: string; now: Date }) =>
    db
      .selectFrom("invitations")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("workspaceId", "=", p.workspaceId)
      .where("acceptedAt", "is", null)
      .where("revokedAt", "is", null)
      .where("expiresAt", ">", p.now),
);

const LIST_PENDING = prepared(
  "team_list_pending_invitations",
  (db, p: { workspaceId: string; now: Date; limit: number; offset: number }) =>
    db
      .selectFrom("invitations as i")
      .leftJoin("users as u", "u.id", "i.createdById")
      .select([
        "i.id",
        "i.email",
        "i.role",
        "i.expiresAt",
        "i.createdAt",
        "i.createdById",
        "u.email as creatorEmail",
      ])
      .where("i.workspaceId", "=", p.workspaceId)
      .where("i.acceptedAt", "is", null)
      .where("i.revokedAt", "is", null)
      .where("i.expiresAt", ">", p.now)
      .orderBy("i.createdAt", "desc")
      .orderBy("i.id", "desc")
      .limit(p.limit)
      .offset(p.offset),
);

export async function countPendingInvitations(db: Db, workspaceId: string, now: Date): Promise<number> {
  const [row] = await COUNT_PENDING.run(db, { workspaceId, now });
  return Number(row?.n ?? 0);
}

/** A page of the pending invitations, the newest first, with the email of who made each. */
export async function listPendingInvitations(
  db: Db,
  workspaceId: string,
  now: Date,
  { limit, offset }: { limit: number; offset: number },
) {
  return LIST_PENDING.run(db, { workspaceId, now, limit, offset });
}

const BY_ID = prepared("team_invitation_by_id", (db, p: { id: string }) =>
  db.selectFrom("invitations").selectAll().where("id", "=", p.id),
);

export async function readInvitation(db: Db, id: string) {
  const [row] = await BY_ID.run(db, { id });
  return row;
}

/** Revokes invitation `id`: whether it was there. */
export async function setInvitationRevoked(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("invitations")
    .set({ revokedAt: now })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

const BY_TOKEN = prepared("team_invitation_by_token", (db, p: { tokenHash: string }) =>
  db
    .selectFrom("invitations as i")
    .innerJoin("workspaces as w", "w.id", "i.workspaceId")
    .selectAll("i")
    .select("w.name as workspaceName")
    .where("i.tokenHash", "=", p.tokenHash),
);

/** The invitation of a token's hash with its workspace's name, undefined when there is none. */
export async function readInvitationByToken(db: Db, tokenHash: string) {
  const [row] = await BY_TOKEN.run(db, { tokenHash });
  return row;
}

/** Marks the invitation accepted if it still may be at `now`: whether it did. */
export async function claimInvitation(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("invitations")
    .set({ acceptedAt: now })
    .where("id", "=", id)
    .where("acceptedAt", "is", null)
    .where("revokedAt", "is", null)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Records who accepted invitation `id`: whether it was there. */
export async function setInvitationAcceptedBy(db: Db, id: string, userId: string): Promise<boolean> {
  const result = await db
    .updateTable("invitations")
    .set({ acceptedBy: userId })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
