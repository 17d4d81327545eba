/**
 * The workspace's view of verification sessions (console Verifications pages, Workspace API).
 * Rules:
 * - only the caller's workspace and the URL's environment: another workspace's or environment's
 *   session is 404, never 403 (its existence is not disclosed);
 * - the list leaves out OpenID Provider sessions no end-user has acted on (`untouched`,
 *   lib/verifications/create.ts): anonymous /auth requests add nothing to it;
 * - the list and the activity carry no personal data; revealing the claims needs permission
 *   `personal_data` (checked by withApi) and is audited without any personal value;
 * - cancel and test sessions reuse the App API's code (lib/verifications/create.ts, transitions.ts), so events,
 *   webhooks and checks are the same whichever credential started or cancelled a session;
 * - the activity's request list is the request log's rows that named the session (path
 *   parameter, or the create that returned it), from this workspace only.
 */
import type { z } from "zod";
import type { AppAuth } from "../../auth/app-credentials";
import type { WorkspaceAuth } from "../../auth/workspace-keys";
import { getOwnedApp } from "../../apps/service";
import { recordAudit, workspaceAudit } from "../../audit";
import type { Db } from "../../db/client";
import type { Verification } from "../../db/rows";
import { ApiError, notFound } from "../../errors";
import { page, type TPage } from "../../http/pagination";
import { parseCredentialType } from "../../request-log/credential-types";
import { findProvider } from "../../providers/catalog";
import { createVerification } from "../create";
import type { TUserinfo, TVerificationStatus } from "../endpoints";
import { hostedPageUrl, readUserinfo, toStatusRecord } from "../read";
import { cancelByIntegrator } from "../transitions";
import { parseVerificationState } from "../state-machine";
import { parseDeliveryStatus } from "../../webhooks/log/service";
import { planVerification } from "../../workflows/engine/plan";
import type { TRunnableWorkflow } from "../../workflows/engine/nodes";
import { runnableWorkflow } from "../../workflows/row";
import { parseChannel } from "../../workflows/schema";
import type {
  TListVerificationsQuery,
  TVerificationActivityJson,
  TVerificationListItemJson,
  ZTestVerificationJson,
} from "./endpoints";
import {
  countVerifications,
  listDeliveries,
  listEvents,
  listRequests,
  listVerifications,
  readVerificationWithApp,
} from "../store/log";

type Scope = Pick<WorkspaceAuth, "workspaceId" | "environment">;

/** Most request-log rows the activity view returns (the newest; the request log has them all). */
export const ACTIVITY_REQUEST_LIMIT = 500;

type VerificationWithApp = Verification & { app: { name: string } };

export function toListItem(v: VerificationWithApp): TVerificationListItemJson {
  return {
    verificationId: v.id,
    clientId: v.appId,
    appName: v.app.name,
    status: parseVerificationState(v.status),
    statusReason: v.statusReason,
    providerId: v.providerId,
    flowType: v.flowType,
    channel: parseChannel(v.channel),
    loa: v.loa,
    createdAt: v.createdAt.toISOString(),
    expiresAt: v.expiresAt.toISOString(),
    verifiedAt: v.verifiedAt?.toISOString() ?? null,
    endedAt: v.endedAt?.toISOString() ?? null,
  };
}

export async function listWorkspaceVerifications(
  db: Db,
  scope: Scope,
  query: TListVerificationsQuery,
): Promise<TPage<TVerificationListItemJson>> {
  const filter = {
    workspaceId: scope.workspaceId,
    environment: scope.environment,
    ...(query.status ? { status: query.status } : {}),
    ...(query.providerId ? { providerId: query.providerId } : {}),
    ...(query.appId ? { appId: query.appId } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
  const [total, rows] = await Promise.all([
    countVerifications(db, filter),
    listVerifications(db, filter, query.limit, query.offset),
  ]);
  return page(rows.map(toListItem), total, query.limit, query.offset);
}

/** The workspace's session in the URL's environment, or 404. */
export async function getWorkspaceVerification(
  db: Db,
  scope: Scope,
  verificationId: string,
): Promise<VerificationWithApp> {
  const v = await readVerificationWithApp(db, verificationId);
  if (!v || v.workspaceId !== scope.workspaceId || v.environment !== scope.environment)
    throw notFound(`Verification "${verificationId}"`);
  return v;
}

function eventMetadata(payload: unknown): Record<string, unknown> | undefined {
  const metadata = (payload as { data?: { event?: { metadata?: unknown } } } | null)?.data?.event?.metadata;
  return metadata && typeof metadata === "object" && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : undefined;
}

export async function getVerificationActivity(
  db: Db,
  scope: Scope,
  verificationId: string,
): Promise<TVerificationActivityJson> {
  const v = await getWorkspaceVerification(db, scope, verificationId);
  const [events, deliveries, requests] = await Promise.all([
    listEvents(db, v.id),
    listDeliveries(db, v.id),
    listRequests(db, scope, v.id, ACTIVITY_REQUEST_LIMIT),
  ]);
  const available = v.status === "completed" && v.resultEncrypted !== null && !v.personalDataDeletedAt;
  return {
    verification: {
      ...toListItem(v),
      workflowId: v.workflowId,
      workflowVersion: v.workflowVersion,
      redirectUri: v.redirectUri,
      personalData: { available, deletedAt: v.personalDataDeletedAt?.toISOString() ?? null },
    },
    events: events.map((e) => {
      const metadata = eventMetadata(e.payload);
      return {
        eventId: e.id,
        type: e.type,
        createdAt: e.createdAt.toISOString(),
        ...(metadata ? { metadata } : {}),
      };
    }),
    deliveries: deliveries.map((d) => ({
      deliveryId: d.id,
      eventId: d.eventId,
      eventType: d.eventType,
      status: parseDeliveryStatus(d.status),
      attemptCount: d.attemptCount,
      lastStatus: d.lastStatus,
      createdAt: d.createdAt.toISOString(),
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
      nextAttemptAt: d.status === "pending" && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
    })),
    requests: requests.reverse().map((r) => ({
      requestId: r.id,
      method: r.method,
      path: r.path,
      status: r.status,
      durationMs: r.durationMs,
      errorCode: r.errorCode,
      credentialType: parseCredentialType(r.credentialType),
      credentialName: r.credentialName,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

interface Actor {
  auth: WorkspaceAuth;
  requestId: string;
}

/** The claims of a completed session, for a member allowed to see personal data; audited. */
export async function revealUserinfo(db: Db, actor: Actor, verificationId: string): Promise<TUserinfo> {
  const v = await getWorkspaceVerification(db, actor.auth, verificationId);
  const userinfo = readUserinfo(v);
  // who looked at whose record, never what they saw
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "verification.personal_data_revealed",
    targetType: "verification",
    targetId: v.id,
    data: { clientId: v.appId, providerId: v.providerId },
  });
  return userinfo;
}

/** POST /v1/verifications/{id}/cancel: the App API's cancel, by a workspace credential; audited. */
export async function cancelWorkspaceVerification(
  db: Db,
  actor: Actor,
  verificationId: string,
): Promise<TVerificationStatus> {
  const v = await getWorkspaceVerification(db, actor.auth, verificationId);
  const cancelled = await cancelByIntegrator(db, v.id);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "verification.cancelled",
    targetType: "verification",
    targetId: v.id,
    data: { clientId: v.appId, providerId: v.providerId },
  });
  return toStatusRecord(cancelled);
}

/**
 * The provider a test session uses when none is named: the first provider the default
 * workflow's verification nodes list (enabled), then the app's other providers, keeping the first
 * that is activated, enabled, discloses claims (match providers need matchData) and that the
 * workflow accepts.
 */
function defaultTestProvider(
  app: Awaited<ReturnType<typeof getOwnedApp>>,
  workflow: TRunnableWorkflow | undefined,
): string {
  const listed = (workflow?.nodes ?? [])
    .filter((n) => n.type === "verification")
    .flatMap((n) => {
      const providers = (n.config as { providers?: Record<string, { enabled?: boolean }> } | undefined)
        ?.providers;
      return Object.entries(providers ?? {})
        .filter(([, o]) => o?.enabled !== false)
        .map(([id]) => id);
    });
  const byAge = [...app.providers].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const candidates = [...new Set([...listed, ...byAge.map((p) => p.providerId)])];
  const appProviders = Object.fromEntries(
    app.providers.map((p) => [p.providerId, { enabled: p.enabled && p.status === "activated" }]),
  );
  for (const id of candidates) {
    const provider = findProvider(id);
    if (!provider || provider.verificationModel !== "disclosure" || !appProviders[id]?.enabled) continue;
    if (!workflow) return id;
    try {
      planVerification(workflow, { providerId: id, provider, appProviders });
      return id;
    } catch (err) {
      // the workflow does not accept this provider: try the next one (a broken workflow is the
      // same 400 naming workflowId that POST /v1/verifications gives)
      if (!(err instanceof ApiError && err.code === "PROVIDER_NOT_AVAILABLE")) throw err;
    }
  }
  const message = "the app's default workflow has no enabled provider that discloses claims; name one";
  throw new ApiError("PROVIDER_NOT_AVAILABLE", `providerId: ${message}`, {
    details: [{ path: "providerId", message }],
  });
}

export type TTestVerification = z.infer<typeof ZTestVerificationJson>;

/** POST /v1/apps/{client_id}/test-verifications (sandbox): a real session, started for the app. */
export async function createTestVerification(
  db: Db,
  actor: Actor,
  clientId: string,
  input: { providerId?: string; redirectUri?: string; workflowId?: string },
): Promise<TTestVerification> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const defaultWorkflow = app.workflows.find((w) => w.id === (input.workflowId ?? app.defaultWorkflowId));
  if (input.workflowId !== undefined && !defaultWorkflow) {
    throw new ApiError("RESOURCE_NOT_FOUND", `Workflow "${input.workflowId}" of app "${app.id}" not found`, {
      details: [{ path: "workflowId", message: "is not a workflow of this app" }],
    });
  }
  const providerId =
    input.providerId ??
    defaultTestProvider(app, defaultWorkflow ? runnableWorkflow(defaultWorkflow) : undefined);
  const appAuth: AppAuth = {
    kind: "app",
    clientId: app.id,
    workspaceId: app.workspaceId,
    environment: app.environment,
  };
  let created;
  try {
    created = await createVerification(db, appAuth, {
      providerId,
      ...(input.workflowId !== undefined ? { workflowId: input.workflowId } : {}),
      ...(input.redirectUri !== undefined ? { redirect_uri: input.redirectUri } : {}),
    });
  } catch (err) {
    // the App API names its field redirect_uri; this body calls it redirectUri
    if (err instanceof ApiError && err.details.some((d) => d.path === "redirect_uri")) {
      const message = "must be one of the app's registered redirectUris";
      throw new ApiError(err.code, `redirectUri: ${message}`, {
        details: [{ path: "redirectUri", message }],
      });
    }
    throw err;
  }
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "verification.test_started",
    targetType: "verification",
    targetId: created.verificationId,
    data: { clientId: app.id, providerId },
  });
  const { url, ...record } = created;
  return { ...record, url: url ?? hostedPageUrl(created.verificationId) };
}
