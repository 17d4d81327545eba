/**
 * The caller's own account: who am I (GET /v1/me) and password change.
 * Rules:
 * - /v1/me reports the permissions the server enforces (lib/auth/roles.ts `can`) for the URL's
 *   environment, so the console never shows a control the API would refuse;
 * - only a console user has a password: an API key changing one is 403;
 * - a wrong current password is a field error on `currentPassword` and counts towards a per-user
 *   limit (429 once over it, checked before the password); a right one clears the counter;
 * - the new password must differ from the current one;
 * - a change signs out every console session of the user, the one that made it included
 *   (lib/auth/console/lifetime.ts `endAllSessions`);
 * - "sign out of all sessions" ends them the same way, for the console user or the operator of
 *   the session that asks (an API or operator key is no session: 403); both are audited.
 */
import type { OperatorAuth } from "../auth/operator-keys";
import { can, parseRole, PERMISSIONS, type TPermission } from "../auth/roles";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { operatorAudit, recordAudit, workspaceWideAudit } from "../audit";
import { endAllSessions } from "../auth/console/lifetime";
import { hashPassword, verifyPassword } from "../crypto/password";
import type { Db } from "../db/client";
import { ApiError, invalidField, notFound } from "../errors";
import { fail, reset } from "../rate-limit";
import type { TMeJson } from "./endpoints";
import { checkLimit, passwordChangeLimit } from "./limits";
import { readUserById, readUserWithWorkspaces } from "./store/accounts";
import { readWorkspaceName } from "./store/members";
import type { TChangePassword } from "./schema";

type Permissions = TMeJson["permissions"];

export function permissionsOf(auth: Pick<WorkspaceAuth, "role" | "environment">): Permissions {
  const out = {} as Record<Exclude<TPermission, "read">, boolean>;
  for (const p of PERMISSIONS) if (p !== "read") out[p] = can(auth.role, p, auth.environment);
  return out;
}

export async function getMe(db: Db, auth: WorkspaceAuth): Promise<TMeJson> {
  const workspaceName = await readWorkspaceName(db, auth.workspaceId);
  if (workspaceName === undefined) throw notFound("Workspace");
  let user: TMeJson["user"] = null;
  let memberships: TMeJson["memberships"] = [];
  if (auth.actor.type === "user") {
    const row = await readUserWithWorkspaces(db, auth.actor.id);
    if (!row) throw new ApiError("INVALID_SESSION", "Your console session has ended. Sign in again");
    user = { id: row.id, email: row.email, name: row.name };
    memberships = row.memberships.map((m) => ({
      workspaceId: m.workspaceId,
      name: m.name,
      role: parseRole(m.role),
    }));
  }
  return {
    user,
    actor: { type: auth.actor.type, id: auth.actor.id, name: auth.actor.name },
    workspace: { id: auth.workspaceId, name: workspaceName },
    environment: auth.environment,
    role: auth.role,
    permissions: permissionsOf(auth),
    memberships,
  };
}

export async function changePassword(
  db: Db,
  auth: WorkspaceAuth,
  input: TChangePassword,
  requestId: string,
): Promise<{ signedOut: true }> {
  if (auth.actor.type !== "user") {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      "An API key has no password: sign in to the console to change your own password",
    );
  }
  const userId = auth.actor.id;
  const limit = passwordChangeLimit();
  await checkLimit(limit, userId, "password change");
  const user = await readUserById(db, userId);
  if (!user) throw new ApiError("INVALID_SESSION", "Your console session has ended. Sign in again");
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await fail(limit, userId);
    throw invalidField("currentPassword", "is not your current password");
  }
  await reset(limit, userId);
  if (input.newPassword === input.currentPassword) {
    throw invalidField("newPassword", "must differ from the current password");
  }
  await endAllSessions(db, userId, { passwordHash: await hashPassword(input.newPassword) });
  await recordAudit(db, {
    ...workspaceWideAudit({ auth, requestId }),
    action: "user.password_changed",
    targetType: "user",
    targetId: userId,
  });
  return { signedOut: true };
}

const SIGNED_OUT_EVERYWHERE = "user.signed_out_everywhere";

/** "Sign out of all sessions" from the console: every session of the signed-in user ends. */
export async function signOutEverywhere(
  db: Db,
  auth: WorkspaceAuth,
  requestId: string,
): Promise<{ signedOut: true }> {
  if (auth.actor.type !== "user") {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      "An API key is no session: sign in to the console to sign out of your sessions",
    );
  }
  await endAllSessions(db, auth.actor.id);
  await recordAudit(db, {
    ...workspaceWideAudit({ auth, requestId }),
    action: SIGNED_OUT_EVERYWHERE,
    targetType: "user",
    targetId: auth.actor.id,
  });
  return { signedOut: true };
}

/** "Sign out of all sessions" from the back-office: every session of the operator ends. */
export async function signOutEverywhereAsOperator(
  db: Db,
  auth: OperatorAuth,
  requestId: string,
): Promise<{ signedOut: true }> {
  if (auth.via !== "session") {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      "An operator key is no session: sign in to the back-office to sign out of your sessions",
    );
  }
  await endAllSessions(db, auth.userId);
  await recordAudit(db, {
    ...operatorAudit({ auth, requestId }),
    action: SIGNED_OUT_EVERYWHERE,
    targetType: "user",
    targetId: auth.userId,
  });
  return { signedOut: true };
}
