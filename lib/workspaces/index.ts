/**
 * Workspaces (the integrator's account), their users and keys.
 * Rules: creating a workspace creates (or reuses, after checking the password) its owner user
 * and one key per environment; the workspace record reports the app count of the caller's
 * environment only.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { createWorkspaceKey } from "../auth/workspace-keys";
import { recordAudit, workspaceWideAudit } from "../audit";
import { cliActor } from "../auth/actor";
import type { Tx } from "../db/client";
import type { TEnvironment } from "../environments";
import { hashPassword, verifyPassword } from "../crypto/password";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";

export interface CreatedWorkspace {
  workspaceId: string;
  userId: string;
  keys: { sandbox: string; production: string };
}

export async function createWorkspace(
  db: Tx,
  input: { name: string; email: string; password: string },
): Promise<CreatedWorkspace> {
  const email = input.email.trim().toLowerCase();
  let user = await db.user.findUnique({ where: { email } });
  if (user) {
    if (!(await verifyPassword(input.password, user.passwordHash))) {
      throw new ApiError(
        "VALIDATION_ERROR",
        `A user with email ${email} already exists and the password does not match`,
        {
          details: [{ path: "password", message: "does not match the existing user" }],
        },
      );
    }
  } else {
    user = await db.user.create({
      data: { id: newId("usr"), email, passwordHash: await hashPassword(input.password) },
    });
  }
  const workspaceId = newId("ws");
  await db.workspace.create({ data: { id: workspaceId, name: input.name } });
  await db.membership.create({ data: { workspaceId, userId: user.id, role: "owner" } });
  const sandbox = await createWorkspaceKey(db, { workspaceId, environment: "sandbox", userId: user.id });
  const production = await createWorkspaceKey(db, {
    workspaceId,
    environment: "production",
    userId: user.id,
  });
  await recordAudit(db, {
    workspaceId,
    actor: cliActor(user.id),
    action: "workspace.created",
    targetType: "workspace",
    targetId: workspaceId,
  });
  return { workspaceId, userId: user.id, keys: { sandbox: sandbox.key, production: production.key } };
}

export async function getWorkspaceSummary(db: Tx, auth: WorkspaceAuth) {
  const workspace = await db.workspace.findUnique({ where: { id: auth.workspaceId } });
  if (!workspace) throw notFound("Workspace");
  const appCount = await db.app.count({
    where: { workspaceId: auth.workspaceId, environment: auth.environment, deletedAt: null },
  });
  return {
    workspaceId: workspace.id,
    organizationId: workspace.id,
    name: workspace.name,
    environment: auth.environment,
    appCount,
    createdAt: workspace.createdAt.toISOString(),
  };
}

export async function renameWorkspace(
  db: Tx,
  auth: WorkspaceAuth,
  input: { name: string },
  requestId: string,
): Promise<Awaited<ReturnType<typeof getWorkspaceSummary>>> {
  const before = await db.workspace.findUnique({ where: { id: auth.workspaceId }, select: { name: true } });
  if (!before) throw notFound("Workspace");
  await db.workspace.update({ where: { id: auth.workspaceId }, data: { name: input.name } });
  await recordAudit(db, {
    ...workspaceWideAudit({ auth, requestId }),
    action: "workspace.renamed",
    targetType: "workspace",
    targetId: auth.workspaceId,
    data: { from: before.name, to: input.name },
  });
  return getWorkspaceSummary(db, auth);
}

export interface IssuedKey {
  keyId: string;
  key: string;
  workspaceId: string;
  environment: TEnvironment;
}

/** Issues a key for an existing workspace; audited in the same transaction. */
export async function issueWorkspaceKey(
  db: Tx,
  input: { workspaceId: string; environment: TEnvironment; name?: string },
): Promise<IssuedKey> {
  const workspace = await db.workspace.findUnique({ where: { id: input.workspaceId }, select: { id: true } });
  if (!workspace) throw notFound(`Workspace ${input.workspaceId}`);
  const created = await createWorkspaceKey(db, input);
  await recordAudit(db, {
    workspaceId: input.workspaceId,
    environment: input.environment,
    actor: cliActor(),
    action: "api_key.created",
    targetType: "api_key",
    targetId: created.id,
    data: { name: input.name ?? null },
  });
  return {
    keyId: created.id,
    key: created.key,
    workspaceId: input.workspaceId,
    environment: input.environment,
  };
}
