/**
 * The owners' notice of a role change: when a member's role changes, every owner of the
 * workspace but the one who made the change gets a mail naming who changed whose role, from what
 * to what (a second pair of eyes on who holds which power). Queued in the change's transaction
 * (lib/mail/queue.ts); nothing when the service sends no mail.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { publicUrl } from "../config";
import type { Db } from "../db/client";
import { ApiError } from "../errors";
import { queueMail } from "../mail/queue";
import { roleChangedMail } from "../mail/templates";
import { mailConfigured } from "../mail/transport";
import { readUserById } from "./store/accounts";
import { readWorkspaceOwners } from "./store/members";

export async function notifyOwnersOfRoleChange(
  db: Db,
  auth: Pick<WorkspaceAuth, "workspaceId" | "actor">,
  change: { memberEmail: string; from: string; to: string },
): Promise<void> {
  if (!mailConfigured()) return;
  const workspace = await readWorkspaceOwners(db, auth.workspaceId);
  // a missing row answers 404 RESOURCE_NOT_FOUND
  if (!workspace) throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
  let changedBy = `the API key "${auth.actor.name}"`;
  if (auth.actor.type === "user") {
    const user = await readUserById(db, auth.actor.id);
    changedBy = user ? (user.name ? `${user.name} (${user.email})` : user.email) : auth.actor.name;
  }
  for (const owner of workspace.owners) {
    if (auth.actor.type === "user" && owner.userId === auth.actor.id) continue;
    await queueMail(
      db,
      "role_changed",
      roleChangedMail({
        to: owner.email,
        workspaceName: workspace.name,
        changedBy,
        member: change.memberEmail,
        from: change.from,
        role: change.to,
        teamUrl: `${publicUrl()}/console/sandbox/team`,
      }),
    );
  }
}
