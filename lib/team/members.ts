/**
 * Workspace members and their roles.
 * Rules:
 * - the team is workspace-wide (audit entries carry no environment);
 * - changing a role needs `team`; granting or taking the owner role needs `team_owner`;
 * - removing someone else needs `team`, removing an owner `team_owner`; every member may remove
 *   themselves (leave), whatever their role;
 * - a workspace always keeps an owner: the last owner can neither be demoted, removed nor leave
 *   (409 LAST_OWNER). Changes lock the workspace row first, so two owners demoting each other at
 *   the same moment cannot both succeed;
 * - a user who is not a member of the caller's workspace is 404, like any unknown record;
 * - a role change is mailed to the workspace's other owners (./role-notice.ts).
 */
import { can, parseRole, PERMISSION_LABEL, type TPermission, type TRole } from "../auth/roles";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { recordAudit, workspaceWideAudit } from "../audit";
import type { Db } from "../db/client";
import { ApiError, notFound } from "../errors";
import { page, type TPage } from "../http/pagination";
import type { TTeamMemberJson } from "./endpoints";
import { notifyOwnersOfRoleChange } from "./role-notice";
import {
  countMembers,
  countOwners,
  deleteMember,
  listMemberRows,
  lockWorkspaceRow,
  readMember,
  updateMemberRole,
  type TMemberRow,
} from "./store/members";

export interface TeamActor {
  auth: WorkspaceAuth;
  requestId: string;
}

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

function toMemberJson(row: TMemberRow, auth: WorkspaceAuth): TTeamMemberJson {
  return {
    userId: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: parseRole(row.role),
    joinedAt: row.createdAt.toISOString(),
    lastSignInAt: row.user.lastSignInAt?.toISOString() ?? null,
    isYou: auth.actor.type === "user" && auth.actor.id === row.userId,
  };
}

export function forbidden(auth: WorkspaceAuth, permission: TPermission): ApiError {
  return new ApiError(
    "RESOURCE_FORBIDDEN",
    `Your role (${auth.role}) may not ${PERMISSION_LABEL[permission]}`,
  );
}

export function requirePermission(auth: WorkspaceAuth, permission: TPermission): void {
  if (!can(auth.role, permission, auth.environment)) throw forbidden(auth, permission);
}

/** Serializes team changes of one workspace (the last-owner rule reads, then writes). */
export async function lockWorkspace(db: Db, workspaceId: string): Promise<void> {
  await lockWorkspaceRow(db, workspaceId);
}

async function ownerCount(db: Db, workspaceId: string): Promise<number> {
  return countOwners(db, workspaceId);
}

async function findMember(db: Db, workspaceId: string, userId: string): Promise<TMemberRow> {
  const row = await readMember(db, workspaceId, userId);
  if (!row) throw notFound(`Member ${userId}`);
  return row;
}

export async function listMembers(
  db: Db,
  auth: WorkspaceAuth,
  { limit, offset }: { limit: number; offset: number },
): Promise<TPage<TTeamMemberJson>> {
  const [total, rows] = await Promise.all([
    countMembers(db, auth.workspaceId),
    listMemberRows(db, auth.workspaceId, { limit, offset }),
  ]);
  return page(
    rows.map((r) => toMemberJson(r, auth)),
    total,
    limit,
    offset,
  );
}

export async function changeMemberRole(
  db: Db,
  actor: TeamActor,
  userId: string,
  role: TRole,
): Promise<TTeamMemberJson> {
  const { auth } = actor;
  await lockWorkspace(db, auth.workspaceId);
  const member = await findMember(db, auth.workspaceId, userId);
  const from = parseRole(member.role);
  if (from === role) return toMemberJson(member, auth);
  if (from === "owner" || role === "owner") requirePermission(auth, "team_owner");
  if (from === "owner" && (await ownerCount(db, auth.workspaceId)) <= 1) {
    throw new ApiError(
      "LAST_OWNER",
      "The workspace needs an owner: make another member owner before changing this role",
    );
  }
  const updated = await updateMemberRole(db, auth.workspaceId, userId, role);
  if (!updated) throw missingRow();
  await recordAudit(db, {
    ...workspaceWideAudit(actor),
    action: "member.role_changed",
    targetType: "user",
    targetId: userId,
    data: { email: member.user.email, from, to: role },
  });
  await notifyOwnersOfRoleChange(db, auth, { memberEmail: member.user.email, from, to: role });
  return toMemberJson(updated, auth);
}

export async function removeMember(db: Db, actor: TeamActor, userId: string): Promise<{ removed: true }> {
  const { auth } = actor;
  const leaving = auth.actor.type === "user" && auth.actor.id === userId;
  if (!leaving) requirePermission(auth, "team");
  await lockWorkspace(db, auth.workspaceId);
  const member = await findMember(db, auth.workspaceId, userId);
  const role = parseRole(member.role);
  if (!leaving && role === "owner") requirePermission(auth, "team_owner");
  if (role === "owner" && (await ownerCount(db, auth.workspaceId)) <= 1) {
    throw new ApiError(
      "LAST_OWNER",
      leaving
        ? "You are the workspace's only owner: make another member owner before leaving"
        : "The workspace needs an owner: make another member owner first",
    );
  }
  if (!(await deleteMember(db, auth.workspaceId, userId))) throw missingRow();
  await recordAudit(db, {
    ...workspaceWideAudit(actor),
    action: "member.removed",
    targetType: "user",
    targetId: userId,
    data: { email: member.user.email, role, left: leaving },
  });
  return { removed: true };
}
