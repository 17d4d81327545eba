/**
 * The facts behind the first-run checklist (../checklist.ts has the rules), on the data layer
 * (lib/db/kysely.ts): one statement of `exists` subqueries, each stopping at its first row
 * (workspace-scoped indexes), so a large workspace costs what a new one does.
 */
import { sql } from "kysely";
import type { Db } from "../../db/kysely";

export interface TChecklistFacts {
  hasApp: boolean;
  hasSandboxVerification: boolean;
  hasWebhook: boolean;
  hasTeammate: boolean;
  hasProductionRequest: boolean;
}

/** Whether each step of workspace `workspaceId`'s checklist has happened, as of `now`. */
export async function readChecklistFacts(db: Db, workspaceId: string, now: Date): Promise<TChecklistFacts> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom("apps")
            .select(sql.lit(1).as("one"))
            .where("workspaceId", "=", workspaceId)
            .where("deletedAt", "is", null),
        )
        .as("hasApp"),
      eb
        .exists(
          eb
            .selectFrom("verifications")
            .select(sql.lit(1).as("one"))
            .where("workspaceId", "=", workspaceId)
            .where("environment", "=", "sandbox")
            .where("untouched", "=", false),
        )
        .as("hasSandboxVerification"),
      eb
        .exists(
          eb
            .selectFrom("apps")
            .select(sql.lit(1).as("one"))
            .where("workspaceId", "=", workspaceId)
            .where("deletedAt", "is", null)
            .where("webhookUrl", "is not", null),
        )
        .as("hasWebhook"),
      eb
        .or([
          eb.exists(
            eb
              .selectFrom("memberships")
              .select(sql.lit(1).as("one"))
              .where("workspaceId", "=", workspaceId)
              .offset(1),
          ),
          eb.exists(
            eb
              .selectFrom("invitations")
              .select(sql.lit(1).as("one"))
              .where("workspaceId", "=", workspaceId)
              .where("acceptedAt", "is", null)
              .where("revokedAt", "is", null)
              .where("expiresAt", ">", now),
          ),
        ])
        .as("hasTeammate"),
      eb
        .or([
          eb.exists(
            eb
              .selectFrom("activationTickets")
              .select(sql.lit(1).as("one"))
              .where("workspaceId", "=", workspaceId)
              .where("environment", "=", "production"),
          ),
          eb.exists(
            eb
              .selectFrom("productionTestRequests")
              .select(sql.lit(1).as("one"))
              .where("workspaceId", "=", workspaceId),
          ),
        ])
        .as("hasProductionRequest"),
    ])
    .executeTakeFirstOrThrow();
  return {
    hasApp: row.hasApp === true,
    hasSandboxVerification: row.hasSandboxVerification === true,
    hasWebhook: row.hasWebhook === true,
    hasTeammate: row.hasTeammate === true,
    hasProductionRequest: row.hasProductionRequest === true,
  };
}
