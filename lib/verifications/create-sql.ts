/**
 * The statements of a session's creation (create.ts): one read of everything the checks need,
 * and one write of the session with its creation events and their webhook deliveries.
 * Rules:
 * - the read is one statement: the app's workspace, redirect URIs and providers, the workflow
 *   to run (the one asked for, else the app's default; only a workflow of this app) with its
 *   version, and whether the production-test challenge named is the app's;
 * - a workflow's nodes are read and parsed only for a version this process has not parsed yet
 *   (lib/workflows/row.ts `runnableWorkflowVersion`); a version's content never changes;
 * - the write is one statement (lib/db/statement.ts), atomic on its own or inside the caller's
 *   transaction: the session row and the events' outbox (lib/webhooks/events.ts `outboxCtes`:
 *   the events and their deliveries, which are their own queue); no job: the session's expiry
 *   at `expiresAt` is the sweep's (expiry-sweep.ts).
 */
import type { Tx } from "../db/client";
import type { Verification } from "../db/generated/client";
import { column, defineStatement, utcParam, type TSqlValue } from "../db/sql";
import type { TEnvironment } from "../environments";
import { notFound } from "../errors";
import { runStatement } from "../db/statement";
import { outboxCtes, outboxValues, type TEventSpec } from "../webhooks/events";
import type { TRunnableWorkflow } from "../workflows/engine/nodes";
import { cachedWorkflowVersion, runnableWorkflowVersion } from "../workflows/row";
import type { TCreateVerification } from "./schema";

export interface TCreationContext {
  workspaceId: string;
  redirectUris: string[];
  providers: { providerId: string; enabled: boolean; status: string }[];
  /** the workflow to run, when the app has it */
  workflow: { id: string; version: number; entryNodeId: string } | null;
  /** the challenge named by the request is one of the app's */
  challengeFound: boolean;
}

const READ_CONTEXT = defineStatement<
  [appId: string, workflowId: string | null, challengeId: string | null],
  TCreationContext
>({
  name: "verifications_creation_context",
  text: `SELECT a.workspace_id, a.redirect_uris,
      COALESCE((SELECT json_agg(json_build_object('providerId', p.provider_id, 'enabled', p.enabled, 'status', p.status))
                FROM app_providers p WHERE p.app_id = a.id), '[]'::json) AS providers,
      w.id AS workflow_id, w.version AS workflow_version, w.entry_node_id,
      ($3::text IS NOT NULL AND EXISTS (
        SELECT 1 FROM production_test_challenges c WHERE c.id = $3::text AND c.app_id = a.id)) AS challenge_found
    FROM apps a
    LEFT JOIN workflows w ON w.id = COALESCE($2::text, a.default_workflow_id) AND w.app_id = a.id
    WHERE a.id = $1::text`,
  parse: (row) => {
    const workflowId = column.textOrNull(row, "workflow_id");
    return {
      workspaceId: column.text(row, "workspace_id"),
      redirectUris: column.textArray(row, "redirect_uris"),
      providers: column.jsonRows(row, "providers").map((p) => ({
        providerId: column.text(p, "providerId"),
        enabled: column.boolean(p, "enabled"),
        status: column.text(p, "status"),
      })),
      workflow: workflowId
        ? {
            id: workflowId,
            version: column.int(row, "workflow_version"),
            entryNodeId: column.text(row, "entry_node_id"),
          }
        : null,
      challengeFound: column.boolean(row, "challenge_found"),
    };
  },
});

/** What a session's creation reads: one statement (see the module rules); 404 for an unknown app. */
export async function readCreationContext(
  db: Tx,
  appId: string,
  input: Pick<TCreateVerification, "workflowId" | "challengeId">,
): Promise<TCreationContext> {
  const [context] = await runStatement(db, READ_CONTEXT, [
    appId,
    input.workflowId ?? null,
    input.challengeId ?? null,
  ]);
  // the app was there when the request was authenticated; gone since: as Prisma's "not found"
  if (!context) throw notFound(`App "${appId}"`);
  return context;
}

const READ_WORKFLOW = defineStatement<
  [workflowId: string],
  { version: number; entryNodeId: string; nodes: unknown }
>({
  name: "verifications_workflow_content",
  text: `SELECT version, entry_node_id, nodes FROM workflows WHERE id = $1::text`,
  parse: (row) => ({
    version: column.int(row, "version"),
    entryNodeId: column.text(row, "entry_node_id"),
    nodes: column.json(row, "nodes"),
  }),
});

/**
 * The runnable content of `workflow` at its version: from this process's cache, else read (its
 * current version, which a concurrent change may have moved on: the session is then planned on,
 * and records, that newer one).
 */
export async function plannableWorkflow(
  db: Tx,
  workflow: { id: string; version: number },
): Promise<{ id: string; version: number; runnable: TRunnableWorkflow } | null> {
  const cached = cachedWorkflowVersion(workflow.id, workflow.version);
  if (cached) return { id: workflow.id, version: workflow.version, runnable: cached };
  const [row] = await runStatement(db, READ_WORKFLOW, [workflow.id]);
  if (!row) return null;
  return {
    id: workflow.id,
    version: row.version,
    runnable: runnableWorkflowVersion({ id: workflow.id, ...row }),
  };
}

/** The columns a new session is written with. */
export type TNewVerification = Pick<
  Verification,
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

const SESSION_PARAMS = 21;

// `untouched` ($19, as via_oidc_provider): an OpenID Provider session starts as nobody's act (create.ts)
const INSERT_VERIFICATION = defineStatement<TSqlValue[], number>({
  name: "verifications_create",
  text: `WITH inserted_verification AS (
    INSERT INTO verifications (id, app_id, workspace_id, environment, provider_id, workflow_id, workflow_version,
      verification_node_id, flow_type, channel, status, redirect_uri, state, locale, device_type, country_code,
      challenge_id, match_data_encrypted, via_oidc_provider, untouched, created_at, updated_at, expires_at)
    VALUES ($1::text, $2::text, $3::text, $4::text::"Environment", $5::text, $6::text, $7::int, $8::text, $9::text,
      $10::text, $11::text, $12::text, $13::text, $14::text, $15::text, $16::text, $17::text, $18::text, $19::boolean,
      $19::boolean, ${utcParam(20)}, ${utcParam(20)}, ${utcParam(21)})
  ),
  ${outboxCtes(SESSION_PARAMS + 1)}
  SELECT count(*)::int AS deliveries FROM outbox_deliveries`,
  parse: (row) => column.int(row, "deliveries"),
});

/**
 * Writes the session `v` and its `events` (with their deliveries where the app's webhook is
 * subscribed), in one statement; returns how many deliveries it queued.
 */
export async function insertVerification(
  db: Tx,
  v: TNewVerification,
  events: readonly TEventSpec[],
): Promise<number> {
  const outbox = outboxValues(v, events, v.createdAt, db);
  const [deliveries] = await runStatement(db, INSERT_VERIFICATION, [
    v.id,
    v.appId,
    v.workspaceId,
    v.environment,
    v.providerId,
    v.workflowId,
    v.workflowVersion,
    v.verificationNodeId,
    v.flowType,
    v.channel,
    v.status,
    v.redirectUri,
    v.state,
    v.locale,
    v.deviceType,
    v.countryCode,
    v.challengeId,
    v.matchDataEncrypted,
    v.viaOidcProvider,
    v.createdAt,
    v.expiresAt,
    ...outbox.values,
  ]);
  outbox.ran();
  return deliveries ?? 0;
}
