/**
 * A session's creation (lib/verifications/create.ts): its two statements, on the data layer
 * (lib/db/kysely.ts), both prepared (every creation runs them).
 * Rules:
 * - the read is one statement: the app's workspace, redirect URIs and providers, the workflow
 *   to run (the one asked for, else the app's default; only a workflow of this app) with its
 *   version, and whether the production-test challenge named is the app's;
 * - a workflow's nodes are read (as JSON text, parsed here: the data layer renames the keys of
 *   JSON documents it reads) and parsed only for a version this process has not parsed yet
 *   (lib/workflows/row.ts `runnableWorkflowVersion`); a version's content never changes;
 * - the write is one statement, atomic on its own or inside the caller's transaction: the
 *   session row and the events' outbox (lib/webhooks/store/outbox.ts `withOutbox`: the events
 *   and their deliveries, which are their own queue); no job: the session's expiry at
 *   `expiresAt` is the sweep's (lib/verifications/expiry-sweep.ts).
 */
import { sql } from "kysely";
import { appProviderStates } from "../../providers/store";
import { prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import { notFound } from "../../errors";
import type { TEventSpec } from "../../webhooks/events";
import { outboxValues } from "../../webhooks/events";
import { withOutbox, type TOutboxParams } from "../../webhooks/store/outbox";
import type { TRunnableWorkflow } from "../../workflows/engine/nodes";
import { cachedWorkflowVersion, runnableWorkflowVersion } from "../../workflows/row";
import type { TCreateVerification } from "../schema";
import type { TVerificationRow } from "./session";

const READ_CONTEXT = prepared(
  "verifications_creation_context",
  (db, p: { appId: string; workflowId: string | null; challengeId: string | null }) =>
    db
      .selectFrom("apps as a")
      .leftJoin("workflows as w", (join) =>
        join
          .on((eb) =>
            eb(
              "w.id",
              "=",
              eb.fn.coalesce(eb.cast<string>(eb.val(p.workflowId), "text"), "a.defaultWorkflowId"),
            ),
          )
          .onRef("w.appId", "=", "a.id"),
      )
      .select((eb) => [
        "a.workspaceId",
        "a.redirectUris",
        appProviderStates(db).as("providers"),
        "w.id as workflowId",
        "w.version as workflowVersion",
        "w.entryNodeId",
        eb
          .and([
            eb(eb.cast<string | null>(eb.val(p.challengeId), "text"), "is not", null),
            eb.exists(
              eb
                .selectFrom("productionTestChallenges as c")
                .select(sql.lit(1).as("one"))
                .where("c.id", "=", eb.cast<string>(eb.val(p.challengeId), "text"))
                .whereRef("c.appId", "=", "a.id"),
            ),
          ])
          .as("challengeFound"),
      ])
      .where("a.id", "=", p.appId),
);

export interface TCreationContext {
  workspaceId: string;
  redirectUris: string[];
  providers: { providerId: string; enabled: boolean; status: string }[];
  /** the workflow to run, when the app has it */
  workflow: { id: string; version: number; entryNodeId: string } | null;
  /** the challenge named by the request is one of the app's */
  challengeFound: boolean;
}

/** What a session's creation reads: one statement (see the module rules); 404 for an unknown app. */
export async function readCreationContext(
  db: Db,
  appId: string,
  input: Pick<TCreateVerification, "workflowId" | "challengeId">,
): Promise<TCreationContext> {
  const [row] = await READ_CONTEXT.run(db, {
    appId,
    workflowId: input.workflowId ?? null,
    challengeId: input.challengeId ?? null,
  });
  // the app was there when the request was authenticated; gone since: 404
  if (!row) throw notFound(`App "${appId}"`);
  const { workflowId, workflowVersion, entryNodeId } = row;
  return {
    workspaceId: row.workspaceId,
    redirectUris: row.redirectUris,
    providers: row.providers.map((p) => p.o),
    workflow:
      workflowId !== null && workflowVersion !== null && entryNodeId !== null
        ? { id: workflowId, version: workflowVersion, entryNodeId }
        : null,
    challengeFound: row.challengeFound === true,
  };
}

const READ_WORKFLOW = prepared("verifications_workflow_content", (db, p: { workflowId: string }) =>
  db.selectFrom("workflows").select(["version", "entryNodeId", "nodes"]).where("id", "=", p.workflowId),
);

/**
 * The runnable content of `workflow` at its version: from this process's cache, else read (its
 * current version, which a concurrent change may have moved on: the session is then planned on,
 * and records, that newer one).
 */
export async function plannableWorkflow(
  db: Db,
  workflow: { id: string; version: number },
): Promise<{ id: string; version: number; runnable: TRunnableWorkflow } | null> {
  const cached = cachedWorkflowVersion(workflow.id, workflow.version);
  if (cached) return { id: workflow.id, version: workflow.version, runnable: cached };
  const [row] = await READ_WORKFLOW.run(db, { workflowId: workflow.id });
  if (!row) return null;
  return {
    id: workflow.id,
    version: row.version,
    runnable: runnableWorkflowVersion({
      id: workflow.id,
      version: row.version,
      entryNodeId: row.entryNodeId,
      nodes: row.nodes,
    }),
  };
}

/** The columns a new session is written with. */
export type TNewVerification = Pick<
  TVerificationRow,
  | "id"
  | "appId"
  | "workspaceId"
  | "providerId"
  | "workflowId"
  | "workflowVersion"
  | "verificationNodeId"
  | "flowType"
  | "channel"
  | "status"
  | "redirectUri"
  | "state"
  | "locale"
  | "deviceType"
  | "countryCode"
  | "challengeId"
  | "matchDataEncrypted"
  | "viaOidcProvider"
  | "createdAt"
  | "updatedAt"
  | "expiresAt"
> & { environment: TEnvironment };

// `untouched` as viaOidcProvider: an OpenID Provider session starts as nobody's act (create.ts)
const INSERT_VERIFICATION = prepared(
  "verifications_create",
  (db, p: Omit<TNewVerification, "id" | "updatedAt"> & TOutboxParams) =>
    withOutbox(db, p)
      .with("insertedVerification", (qc) =>
        qc.insertInto("verifications").values({
          id: p.verificationId,
          appId: p.appId,
          workspaceId: p.workspaceId,
          environment: p.environment,
          providerId: p.providerId,
          workflowId: p.workflowId,
          workflowVersion: p.workflowVersion,
          verificationNodeId: p.verificationNodeId,
          flowType: p.flowType,
          channel: p.channel,
          status: p.status,
          redirectUri: p.redirectUri,
          state: p.state,
          locale: p.locale,
          deviceType: p.deviceType,
          countryCode: p.countryCode,
          challengeId: p.challengeId,
          matchDataEncrypted: p.matchDataEncrypted,
          viaOidcProvider: p.viaOidcProvider,
          untouched: p.viaOidcProvider,
          createdAt: p.createdAt,
          updatedAt: p.createdAt,
          expiresAt: p.expiresAt,
        }),
      )
      .selectFrom("outboxDeliveries")
      .select(sql<number>`count(*)::int`.as("deliveries")),
);

/**
 * Writes the session `v` and its `events` (with their deliveries where the app's webhook is
 * subscribed), in one statement; returns how many deliveries it queued.
 */
export async function insertVerification(
  db: Db,
  v: TNewVerification,
  events: readonly TEventSpec[],
): Promise<number> {
  const outbox = outboxValues(v, events, v.createdAt, db);
  const [row] = await INSERT_VERIFICATION.run(db, { ...v, ...outbox.params });
  outbox.ran();
  return row?.deliveries ?? 0;
}
