/**
 * The workspaces table as lib/workspaces/index.ts reads and renames it, on the data layer
 * (lib/db/kysely.ts); a workspace, its owner and membership are created with the team's store
 * (lib/team/store). `updatedAt` is set here on every change.
 */
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";

/** Workspace `id` (what its summary shows), undefined when there is none. */
export async function readWorkspace(
  db: Db,
  id: string,
): Promise<{ id: string; name: string; createdAt: Date } | undefined> {
  return db
    .selectFrom("workspaces")
    .select(["id", "name", "createdAt"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Renames workspace `id`; whether the row was there. */
export async function setWorkspaceName(db: Db, id: string, name: string): Promise<boolean> {
  const result = await db
    .updateTable("workspaces")
    .set({ name, updatedAt: new Date() })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** How many apps (not deleted) the workspace has in `environment`. */
export async function countLiveApps(db: Db, workspaceId: string, environment: TEnvironment): Promise<number> {
  const { n } = await db
    .selectFrom("apps")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("workspaceId", "=", workspaceId)
    .where("environment", "=", environment)
    .where("deletedAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
