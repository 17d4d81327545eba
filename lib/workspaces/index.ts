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
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { hashPassword, verifyPassword } from "../crypto/password";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { insertUser, readUserByEmail } from "../team/store/accounts";
import { insertMembership, insertWorkspace } from "../team/store/members";
import { countLiveApps, readWorkspace, setWorkspaceName } from "./store";

export interface CreatedWorkspace {
  workspaceId: string;
  userId: string;
  keys: { sandbox: string; production: string };
}

export async function createWorkspace(
  db: Db,
  input: { name: string; email: string; password: string },
): Promise<CreatedWorkspace> {
  const email = input.email.trim().toLowerCase();
  const existing = await readUserByEmail(db, email);
  let userId: string;
  if (existing) {
    if (!(await verifyPassword(input.password, existing.passwordHash))) {
      throw new ApiError(
        "VALIDATION_ERROR",
        `A user with email ${email} already exists and the password does not match`,
        {
          details: [{ path: "password", message: "does not match the existing user" }],
        },
      );
    }
    userId = existing.id;
  } else {
    userId = newId("usr");
    await insertUser(db, {
      id: userId,
      email,
      name: null,
      passwordHash: await hashPassword(input.password),
    });
  }
  const workspaceId = newId("ws");
  await insertWorkspace(db, { id: workspaceId, name: input.name });
  await insertMembership(db, { workspaceId, userId, role: "owner" });
  const sandbox = await createWorkspaceKey(db, { workspaceId, environment: "sandbox", userId });
  const production = await createWorkspaceKey(db, {
    workspaceId,
    environment: "production",
    userId,
  });
  await recordAudit(db, {
    workspaceId,
    actor: cliActor(userId),
    action: "workspace.created",
    targetType: "workspace",
    targetId: workspaceId,
  });
  return { workspaceId, userId, keys: { sandbox: sandbox.key, production: production.key } };
}

export async function getWorkspaceSummary(db: Db, auth: WorkspaceAuth) {
  const workspace = await readWorkspace(db, auth.workspaceId);
  if (!workspace) throw notFound("Workspace");
  const appCount = await countLiveApps(db, auth.workspaceId, auth.environment);
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
  db: Db,
  auth: WorkspaceAuth,
  input: { name: string },
  requestId: string,
): Promise<Awaited<ReturnType<typeof getWorkspaceSummary>>> {
  const before = await readWorkspace(db, auth.workspaceId);
  if (!before) throw notFound("Workspace");
  // a missing row answers 404 RESOURCE_NOT_FOUND, should the row go between the read and here
  if (!(await setWorkspaceName(db, auth.workspaceId, input.name)))
    throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
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
  db: Db,
  input: { workspaceId: string; environment: TEnvironment; name?: string },
): Promise<IssuedKey> {
  const workspace = await readWorkspace(db, input.workspaceId);
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
