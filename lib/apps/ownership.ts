/**
 * The 403 for an app another workspace owns, worded for whoever asked: a caller with a workspace
 * API key reads about the key's workspace; a person signed in to the console reads about the
 * workspace they have open (they hold no key, and may be a member of the app's workspace too).
 * The answer never names the owning workspace.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { ApiError } from "../errors";

/** Who asked; a caller without an actor is taken for an API key (the Workspace API's credential). */
export type TAppAsker = Pick<WorkspaceAuth, "workspaceId" | "environment"> &
  Partial<Pick<WorkspaceAuth, "actor">>;

export function foreignAppError(auth: TAppAsker, clientId: string): ApiError {
  return new ApiError(
    "RESOURCE_FORBIDDEN",
    auth.actor?.type === "user"
      ? `This app belongs to another workspace: app "${clientId}" is not in the workspace you have open`
      : `The API key's workspace does not own app "${clientId}"`,
  );
}
