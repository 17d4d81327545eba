/**
 * Verification sessions: creation, the end-user's progress, outcomes, cancellation, expiry.
 * Rules:
 * - a session runs one provider that is activated and enabled for the app, with the app's chosen
 *   (or default) workflow; the workflow is planned at creation (which verification node runs);
 * - every transition follows lib/verifications/state-machine.ts, happens under a row lock inside the
 *   caller's transaction, and writes its events there too (lib/webhooks/events.ts);
 * - events in order: created, requested, workflow.started at creation; user.authentication_started
 *   when the end-user reaches the provider; user.authentication_succeeded|failed when it answers;
 *   then completed | failed; workflow.cancelled on cancel; session.timed_out on expiry;
 * - sessions of the OpenID Provider (viaOidcProvider) are created by anonymous requests: their
 *   three creation events are written at the end-user's first action instead (still first, in
 *   the same order), and one nobody acted on expires without any event;
 * - the funnel stamps startedAt (authentication started) and authenticatedAt (the provider
 *   authenticated the end-user) are written by their transitions, in the same update;
 * - personal data (claims, evidence, matchData, upstream hand-off state) is sealed with
 *   IDV_MASTER_KEY, never logged, wiped on cancel and after the retention period;
 * - another app's session is 404, never 403;
 * - a session that ends completed or failed gets its decision record (decisions.ts) in the same
 *   transaction.
 */
import type { AppAuth } from "../auth/app-credentials";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import type { Tx } from "../db/client";
import type { Verification, Workflow } from "../db/generated/client";
import { ApiError, invalidField, notFound } from "../errors";
import { newId } from "../ids";
import { expireVerificationJob } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";
import { subjectFor } from "../oidc/subject";
import { claimStamp, recordParticipation } from "../production-tests/participation";
import { simulateOutcome } from "../providers/adapters/simulator";
import { validateMatchData } from "../providers/adapters/match";
import { buildProvenance } from "../providers/adapters/provenance";
import type { TAdapterOutcome, TSourceIdentity } from "../providers/adapters/types";
import { findProvider, type TFlowType, type TProviderDefinition } from "../providers/catalog";
import { emitVerificationEvent, type TWebhookTarget } from "../webhooks/events";
import { planVerification, runChecks } from "../workflows/engine";
import type { TWorkflowNode } from "../workflows/json";
import { recordDecision } from "./decisions";
import { acrFor, loaLabel } from "./loa";
import type { TCreateVerification, TSimulate } from "./schema";
import { publicUrl, retentionDays, sessionTtlSeconds } from "./settings";
import { transition } from "../state-machine";
import { isTerminal, VERIFICATION_TRANSITIONS, type TVerificationTransition } from "./state-machine";

export interface TVerificationCreated {
  verificationId: string;
  status: string;
  providerId: string;
  workflowId: string;
  flowType: string;
  url?: string;
  createdAt: string;
  expiresAt: string;
}

export interface TVerificationStatus {
  verificationId: string;
  status: string;
  providerId: string;
  workflowId: string;
  flowType: string;
  createdAt: string;
  expiresAt: string;
  verifiedAt?: string;
  acr?: string;
  service_loa?: number;
  service_loa_label?: string;
  /** machine-readable reason of failed / cancelled / expired sessions */
  reason?: string;
}

export interface TUserinfo {
  sub: string;
  amr: string[];
  provider_id: string;
  verification_model: "disclosure" | "match";
  service_loa: number;
  service_loa_label: string;
  acr: string;
  missing_claims: string[];
  user: Record<string, unknown>;
  provenance: Record<string, unknown>;
  match?: Record<string, unknown>;
}

export interface TEvidence {
  token: Record<string, string>;
  names: string;
}

// ---------------------------------------------------------------------------------------------
// Reading

export function hostedPageUrl(verificationId: string): string {
  return `${publicUrl()}/verify/${verificationId}`;
}

export function toStatusRecord(v: Verification): TVerificationStatus {
  const completed = v.status === "completed" && v.loa !== null;
  return {
    verificationId: v.id,
    status: v.status,
    providerId: v.providerId,
    workflowId: v.workflowId,
    flowType: v.flowType as TFlowType,
    createdAt: v.createdAt.toISOString(),
    expiresAt: v.expiresAt.toISOString(),
    ...(v.verifiedAt ? { verifiedAt: v.verifiedAt.toISOString() } : {}),
    ...(completed ? { acr: acrFor(v.loa!), service_loa: v.loa!, service_loa_label: loaLabel(v.loa!) } : {}),
    ...(v.statusReason && v.status !== "completed" ? { reason: v.statusReason } : {}),
  };
}

/** The app's session, or 404 (another app's, another environment's, or unknown). */
export async function getOwnedVerification(
  db: Tx,
  auth: AppAuth,
  verificationId: string,
): Promise<Verification> {
  const v = await db.verification.findUnique({ where: { id: verificationId } });
  if (!v || v.appId !== auth.clientId || v.environment !== auth.environment)
    throw notFound(`Verification "${verificationId}"`);
  return v;
}

function unseal<T>(sealed: string | null): T | undefined {
  return sealed ? (JSON.parse(decryptSecret(sealed)) as T) : undefined;
}

function seal(value: unknown): string {
  return encryptSecret(JSON.stringify(value));
}

function requireCompleted(v: Verification): void {
  if (v.status !== "completed") {
    throw new ApiError(
      "VERIFICATION_NOT_COMPLETED",
      `Verification "${v.id}" is ${v.status}; claims are available once it is completed`,
    );
  }
  if (v.personalDataDeletedAt) {
    throw new ApiError(
      "VERIFICATION_DATA_DELETED",
      `The personal data of verification "${v.id}" has been deleted (retention period passed)`,
    );
  }
}

export function readUserinfo(v: Verification): TUserinfo {
  requireCompleted(v);
  return unseal<TUserinfo>(v.resultEncrypted)!;
}

export function readEvidence(v: Verification): TEvidence {
  requireCompleted(v);
  return unseal<TEvidence>(v.evidenceEncrypted) ?? { token: {}, names: "" };
}

// ---------------------------------------------------------------------------------------------
// Creation

function providerUnavailable(message: string): ApiError {
  return new ApiError("PROVIDER_NOT_AVAILABLE", message, { details: [{ path: "providerId", message }] });
}

export interface TCreateVerificationOptions {
  /** the OpenID Provider's sessions always run in the browser, whatever the workflow plans */
  channel?: "oidc";
}

export async function createVerification(
  db: Tx,
  auth: AppAuth,
  input: TCreateVerification,
  options: TCreateVerificationOptions = {},
): Promise<TVerificationCreated> {
  const app = await db.app.findUniqueOrThrow({ where: { id: auth.clientId }, include: { providers: true } });
  const provider = findProvider(input.providerId);
  if (!provider) throw providerUnavailable(`Unknown provider "${input.providerId}"`);
  const appProvider = app.providers.find((p) => p.providerId === provider.id);
  if (!appProvider || appProvider.status !== "activated") {
    throw providerUnavailable(`Provider "${provider.id}" is not activated for this app`);
  }
  if (!appProvider.enabled) throw providerUnavailable(`Provider "${provider.id}" is disabled for this app`);

  const workflowId = input.workflowId ?? app.defaultWorkflowId;
  const workflow = workflowId
    ? await db.workflow.findFirst({ where: { id: workflowId, appId: app.id } })
    : null;
  if (!workflow) {
    throw input.workflowId
      ? invalidField("workflowId", `no workflow "${input.workflowId}" in this app`)
      : new ApiError("VALIDATION_ERROR", "The app has no default workflow");
  }
  const appProviders = Object.fromEntries(
    app.providers.map((p) => [p.providerId, { enabled: p.enabled && p.status === "activated" }]),
  );
  const planned = planVerification(
    { entryNodeId: workflow.entryNodeId, nodes: workflow.nodes as unknown as TWorkflowNode[] },
    { providerId: provider.id, provider, appProviders },
  );
  const plan = options.channel ? { ...planned, channel: options.channel } : planned;

  if (input.redirect_uri !== undefined && !app.redirectUris.includes(input.redirect_uri)) {
    throw invalidField("redirect_uri", "must be one of the app's registered redirectUris");
  }
  if (provider.verificationModel === "match") {
    if (!input.matchData)
      throw invalidField("matchData", `is required for the match provider "${provider.id}"`);
    validateMatchData(provider, input.matchData);
  } else if (input.matchData) {
    throw invalidField("matchData", `is only accepted by match providers; "${provider.id}" discloses claims`);
  }
  const flowType = input.flowType ?? provider.flowTypes[0]!;
  if (!provider.flowTypes.includes(flowType)) {
    throw invalidField("flowType", `"${provider.id}" supports ${provider.flowTypes.join(", ")}`);
  }
  if (input.challengeId) {
    const challenge = await db.productionTestChallenge.findUnique({ where: { id: input.challengeId } });
    if (!challenge || challenge.appId !== app.id)
      throw invalidField("challengeId", "no such production-test challenge for this app");
  }

  const now = new Date();
  const id = newId("ver");
  const created = await db.verification.create({
    data: {
      id,
      appId: app.id,
      workspaceId: app.workspaceId,
      environment: auth.environment,
      providerId: provider.id,
      workflowId: workflow.id,
      // the version the session was planned on (lib/workflows/versions.ts)
      workflowVersion: workflow.version,
      verificationNodeId: plan.verificationNodeId,
      flowType,
      channel: plan.channel,
      status: "awaiting_user_action",
      redirectUri: input.redirect_uri ?? null,
      state: input.state ?? null,
      locale: input.locale ?? null,
      deviceType: input.deviceType ?? null,
      countryCode: input.countryCode ?? null,
      challengeId: input.challengeId ?? null,
      matchDataEncrypted: input.matchData ? seal(input.matchData) : null,
      viaOidcProvider: options.channel === "oidc",
      createdAt: now,
      expiresAt: new Date(now.getTime() + sessionTtlSeconds() * 1000),
    },
  });
  // the app row loaded above carries the webhook settings: no query per event. The OpenID
  // Provider's sessions come from anonymous GETs of /oidc/{env}/auth: their creation events wait
  // for the end-user's first action (move), so repeated requests cannot flood the app's webhook
  if (!created.viaOidcProvider) await emitCreationEvents(db, created, { app, mode: plan.mode });
  await enqueue(db, expireVerificationJob, { verificationId: id }, { runAt: created.expiresAt });
  return {
    verificationId: id,
    status: created.status,
    providerId: provider.id,
    workflowId: workflow.id,
    flowType,
    ...(plan.channel === "api" ? {} : { url: hostedPageUrl(id) }),
    createdAt: created.createdAt.toISOString(),
    expiresAt: created.expiresAt.toISOString(),
  };
}

/** verification.created, .requested and .workflow.started, in this order. */
async function emitCreationEvents(
  db: Tx,
  v: Verification,
  options: { app?: TWebhookTarget; mode: string },
): Promise<void> {
  const app = options.app ? { app: options.app } : {};
  await emitVerificationEvent(db, v, "verification.created", app);
  await emitVerificationEvent(db, v, "verification.requested", {
    ...app,
    metadata: {
      channel: v.channel,
      flowType: v.flowType,
      ...(v.redirectUri ? { redirectUri: v.redirectUri } : {}),
    },
  });
  await emitVerificationEvent(db, v, "verification.workflow.started", {
    ...app,
    metadata: { verificationNodeId: v.verificationNodeId, mode: options.mode },
  });
}

/** An OpenID Provider session nobody has acted on yet: its creation events are still to come. */
function unannounced(v: Verification): boolean {
  return v.viaOidcProvider && v.status === "awaiting_user_action";
}

/** The deferred creation events of an OpenID Provider session, at the end-user's first action. */
async function announce(db: Tx, v: Verification): Promise<void> {
  const workflow = await plannedWorkflow(db, v);
  const node = (workflow?.nodes as unknown as TWorkflowNode[] | undefined)?.find(
    (n) => n.id === v.verificationNodeId,
  );
  const mode = (node?.config as { mode?: string } | undefined)?.mode ?? "pii";
  await emitCreationEvents(db, v, { mode });
}

// ---------------------------------------------------------------------------------------------
// Transitions

/** Locks the session row for the rest of the transaction and returns it. */
export async function lockVerification(db: Tx, verificationId: string): Promise<Verification> {
  const rows = await db.$queryRaw<
    { id: string }[]
  >`SELECT id FROM verifications WHERE id = ${verificationId} FOR UPDATE`;
  if (rows.length === 0) throw notFound(`Verification "${verificationId}"`);
  return db.verification.findUniqueOrThrow({ where: { id: verificationId } });
}

/** The refusal of a move the state table does not have: terminal, or a state conflict. */
function refuseMove(v: Verification) {
  return (from: string, event: TVerificationTransition, allowed: readonly string[]): ApiError =>
    isTerminal(from)
      ? new ApiError("VERIFICATION_TERMINAL", `Verification "${v.id}" is already ${from}`)
      : new ApiError(
          "VERIFICATION_STATE_CONFLICT",
          `Verification "${v.id}" is ${from}; "${event}" is only possible from ${allowed.join(", ")}`,
        );
}

async function move(
  db: Tx,
  v: Verification,
  event: TVerificationTransition,
  data: Partial<Verification> = {},
): Promise<Verification> {
  const to = transition(VERIFICATION_TRANSITIONS, v.status, event, refuseMove(v));
  // the end-user acted on an OpenID Provider session: it is announced first (an expiry is no act)
  if (unannounced(v) && event !== "expire") await announce(db, v);
  const ended = isTerminal(to) ? { endedAt: new Date() } : {};
  return db.verification.update({ where: { id: v.id }, data: { ...data, ...ended, status: to } });
}

function eventResult(provider: TProviderDefinition, loa: number) {
  return {
    loa: acrFor(loa),
    amr: [provider.id],
    channel: { type: provider.channel.type, transport: provider.channel.transport },
  };
}

/** The end-user reached the identity provider (idempotent while authenticating). */
/**
 * The workflow as the session was planned on it: the content of its recorded version while that
 * is kept, else the current one (sessions from before versions). An edit made while the end-user
 * verifies therefore applies to the next session, not to this one.
 */
async function plannedWorkflow(db: Tx, v: Verification): Promise<Workflow | null> {
  const workflow = await db.workflow.findUnique({ where: { id: v.workflowId } });
  if (!workflow || v.workflowVersion === null || v.workflowVersion === workflow.version) return workflow;
  const kept = await db.workflowVersion.findUnique({
    where: { workflowId_version: { workflowId: v.workflowId, version: v.workflowVersion } },
  });
  return kept ? { ...workflow, entryNodeId: kept.entryNodeId, nodes: kept.nodes } : workflow;
}

export async function startAuthentication(db: Tx, verificationId: string): Promise<Verification> {
  const v = await lockVerification(db, verificationId);
  if (v.status === "authenticating") return v;
  // funnel stamp (GET /v1/stats/verifications): written with the transition
  const moved = await move(db, v, "start_authentication", { startedAt: new Date() });
  await emitVerificationEvent(db, moved, "verification.user.authentication_started", {
    metadata: { flowType: moved.flowType },
  });
  return moved;
}

async function participate(db: Tx, v: Verification, successful: boolean): Promise<void> {
  if (!v.challengeId) return;
  const participation = await recordParticipation(db, {
    challengeId: v.challengeId,
    verificationId: v.id,
    providerId: v.providerId,
    successful,
  });
  if (participation.ok && successful) await claimStamp(db, participation.participation.id);
}

async function complete(
  db: Tx,
  v: Verification,
  provider: TProviderDefinition,
  identity: TSourceIdentity,
): Promise<Verification> {
  const loa = identity.loa ?? provider.defaultLoa;
  const authenticatedAt = new Date();
  const succeeded = await move(db, v, "authentication_succeeded", {
    loa,
    // funnel stamps: authenticated implies started, even for a flow that skipped the start
    authenticatedAt,
    startedAt: v.startedAt ?? authenticatedAt,
  });
  await emitVerificationEvent(db, succeeded, "verification.user.authentication_succeeded", {
    result: eventResult(provider, loa),
  });
  const workflow = await plannedWorkflow(db, v);
  const checks = workflow
    ? runChecks(
        { entryNodeId: workflow.entryNodeId, nodes: workflow.nodes as unknown as TWorkflowNode[] },
        v.verificationNodeId,
        {
          provider,
          identity,
          loa,
        },
      )
    : ({
        outcome: "failed",
        reason: "workflow_deleted",
        failedNodeId: "",
        message: "The workflow was deleted",
        path: [],
      } as const);

  if (checks.outcome === "failed") {
    const failed = await move(db, succeeded, "reject", {
      statusReason: checks.reason,
      upstreamEncrypted: null,
    });
    await emitVerificationEvent(db, failed, "verification.failed", {
      metadata: { reason: checks.reason, ...(checks.failedNodeId ? { nodeId: checks.failedNodeId } : {}) },
      result: eventResult(provider, loa),
    });
    await recordDecision(db, failed, { kind: "checked", provider, workflow, identity, loa, checks });
    await participate(db, failed, false);
    return failed;
  }

  const verifiedAt = new Date();
  const sub = subjectFor(provider.id, identity.upstreamSubject);
  const provenance = buildProvenance(provider, identity, {
    verificationId: v.id,
    verifiedAt,
    flowType: v.flowType as TFlowType,
    ...(identity.match ? { status: identity.match.matched ? "matched" : "not_matched" } : {}),
  });
  const userinfo: TUserinfo = {
    sub,
    amr: [provider.id],
    provider_id: provider.id,
    verification_model: provider.verificationModel,
    service_loa: loa,
    service_loa_label: loaLabel(loa),
    acr: acrFor(loa),
    missing_claims: checks.missingClaims,
    user: checks.user,
    provenance: provenance as Record<string, unknown>,
    ...(identity.match ? { match: identity.match as unknown as Record<string, unknown> } : {}),
  };
  const evidence: TEvidence = { token: identity.evidence, names: Object.keys(identity.evidence).join(";") };
  const completed = await move(db, succeeded, "complete", {
    verifiedAt,
    subject: sub,
    resultEncrypted: seal(userinfo),
    evidenceEncrypted: seal(evidence),
    upstreamEncrypted: null,
  });
  await emitVerificationEvent(db, completed, "verification.completed", {
    result: eventResult(provider, loa),
  });
  await recordDecision(db, completed, { kind: "checked", provider, workflow, identity, loa, checks });
  await participate(db, completed, true);
  return completed;
}

/** Applies what the provider (or the simulator) answered; used by every adapter's return path. */
export async function applyAdapterOutcome(
  db: Tx,
  verificationId: string,
  outcome: TAdapterOutcome,
): Promise<Verification> {
  const v = await lockVerification(db, verificationId);
  const provider = findProvider(v.providerId);
  if (!provider) throw new Error(`provider ${v.providerId} vanished from the catalog`);
  switch (outcome.kind) {
    case "success":
      return complete(db, v, provider, outcome.identity);
    case "failure": {
      const failed = await move(db, v, "authentication_failed", {
        statusReason: outcome.reason,
        upstreamEncrypted: null,
        // funnel stamp: the provider answered, so the end-user had started
        startedAt: v.startedAt ?? new Date(),
      });
      await emitVerificationEvent(db, failed, "verification.user.authentication_failed", {
        metadata: { reason: outcome.reason },
      });
      await emitVerificationEvent(db, failed, "verification.failed", {
        metadata: { reason: outcome.reason },
      });
      await recordDecision(db, failed, { kind: "unauthenticated", provider, reason: outcome.reason });
      await participate(db, failed, false);
      return failed;
    }
    case "cancelled":
      return cancelSession(db, v, "user");
    case "expired":
      return expireSession(db, v);
  }
}

async function cancelSession(db: Tx, v: Verification, by: "user" | "integrator"): Promise<Verification> {
  const cancelled = await move(db, v, "cancel", {
    statusReason: by === "user" ? "cancelled_by_user" : "cancelled_by_integrator",
    ...personalDataWipe(),
  });
  await emitVerificationEvent(db, cancelled, "verification.workflow.cancelled", {
    metadata: { cancelledBy: by },
  });
  return cancelled;
}

async function expireSession(db: Tx, v: Verification): Promise<Verification> {
  const expired = await move(db, v, "expire", {
    statusReason: "session_timed_out",
    upstreamEncrypted: null,
    matchDataEncrypted: null,
  });
  // an OpenID Provider session nobody acted on ends as silently as it began
  if (!unannounced(v)) await emitVerificationEvent(db, expired, "verification.session.timed_out");
  return expired;
}

function personalDataWipe() {
  return {
    matchDataEncrypted: null,
    resultEncrypted: null,
    evidenceEncrypted: null,
    upstreamEncrypted: null,
    personalDataDeletedAt: new Date(),
  };
}

/** DELETE /v1/verifications/{id}: cancel an ongoing session and delete its personal data. */
export async function cancelVerification(db: Tx, auth: AppAuth, verificationId: string): Promise<void> {
  await getOwnedVerification(db, auth, verificationId);
  await cancelByIntegrator(db, verificationId);
}

/**
 * The integrator's cancel (the App API's DELETE, the Workspace API's POST …/cancel): callers
 * check ownership first. 400 VERIFICATION_TERMINAL when the session already ended.
 */
export async function cancelByIntegrator(db: Tx, verificationId: string): Promise<Verification> {
  const v = await lockVerification(db, verificationId);
  return cancelSession(db, v, "integrator");
}

/** The expiry job: a session still open at its expiresAt is expired. */
export async function expireIfDue(db: Tx, verificationId: string, now = new Date()): Promise<boolean> {
  const v = await lockVerification(db, verificationId).catch(() => undefined);
  if (!v || isTerminal(v.status) || v.expiresAt > now) return false;
  await expireSession(db, v);
  return true;
}

/** Retention: wipes personal data of sessions that ended more than IDV_RETENTION_DAYS ago. */
export async function purgeExpiredPersonalData(db: Tx, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays() * 24 * 3600 * 1000);
  const { count } = await db.verification.updateMany({
    where: { endedAt: { lt: cutoff }, personalDataDeletedAt: null },
    data: personalDataWipe(),
  });
  return count;
}

// ---------------------------------------------------------------------------------------------
// Sandbox test helpers: the same path the simulator pages take.

export async function simulateVerification(
  db: Tx,
  auth: AppAuth,
  verificationId: string,
  input: TSimulate,
): Promise<Verification> {
  await getOwnedVerification(db, auth, verificationId);
  return simulateSession(db, verificationId, input);
}

/**
 * Drives a sandbox session as its provider would: the end-user reaches the provider, then the
 * outcome applies. The test helper endpoint and the simulator pages both call this.
 */
export async function simulateSession(
  db: Tx,
  verificationId: string,
  input: TSimulate,
): Promise<Verification> {
  const owned = await lockVerification(db, verificationId);
  if (owned.environment !== "sandbox") throw notFound(`Verification "${verificationId}"`);
  if (isTerminal(owned.status))
    throw new ApiError("VERIFICATION_TERMINAL", `Verification "${owned.id}" is already ${owned.status}`);
  const provider = findProvider(owned.providerId)!;
  const matchData = unseal<Record<string, unknown>>(owned.matchDataEncrypted);
  const outcome = simulateOutcome(provider, {
    outcome: input.outcome,
    identityId: input.identity,
    matchData,
    reference: owned.id,
    at: new Date(),
  });
  await startAuthentication(db, owned.id);
  return applyAdapterOutcome(db, owned.id, outcome);
}
