/**
 * Applying what the identity provider (or the simulator) answered to a session: every adapter's
 * return path ends here.
 * Rules:
 * - success: user.authentication_succeeded, then the workflow's checks run on the version the
 *   session was planned on; they pass → completed (userinfo and evidence sealed), they fail →
 *   failed with the check's reason; a deleted workflow fails the session;
 * - failure: user.authentication_failed, then failed; cancel and expiry as in transitions.ts; the
 *   reason of an upstream fault in production is provider_unavailable (upstream-faults.ts);
 * - an outcome's events (authentication succeeded or failed, then completed or failed) are
 *   written in this order with the session row and its decision record, in one statement
 *   (transitions.ts `saveChange`), after the events of earlier moves of the same change;
 * - the funnel stamps authenticatedAt (and startedAt, for a flow that skipped the start) are
 *   written by their transitions, in the same update;
 * - a session that ends completed or failed gets its decision record (decisions.ts: on the
 *   planned workflow for a checked session, the current one for a session the provider did not
 *   authenticate) and, when it takes part in a production-test challenge, its participation, in
 *   the same transaction.
 */
import type { Verification } from "../db/rows";
import type { Db } from "../db/kysely";
import { subjectFor } from "../oidc/subject";
import { claimStamp, recordParticipation } from "../production-tests/participation";
import { buildProvenance } from "../providers/adapters/provenance";
import type { TAdapterOutcome, TSourceIdentity } from "../providers/adapters/types";
import { findProvider, parseFlowType, type TProviderDefinition } from "../providers/catalog";
import { runChecks } from "../workflows/engine/run";
import { decisionRow } from "./decisions";
import type { TEvidence, TUserinfo } from "./endpoints";
import { acrFor, loaLabel } from "./loa";
import { seal } from "./personal-data";
import { integratorReason } from "./upstream-faults";
import {
  applyCancel,
  applyExpiry,
  currentWorkflowOf,
  lockSession,
  move,
  plannedWorkflowOf,
  recordEvent,
  saveChange,
  type TSessionChange,
} from "./transitions";

function eventResult(provider: TProviderDefinition, loa: number) {
  return {
    loa: acrFor(loa),
    amr: [provider.id],
    channel: { type: provider.channel.type, transport: provider.channel.transport },
  };
}

async function participate(db: Db, v: Verification, successful: boolean): Promise<void> {
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
  db: Db,
  change: TSessionChange,
  provider: TProviderDefinition,
  identity: TSourceIdentity,
): Promise<void> {
  const v = change.row;
  const loa = identity.loa ?? provider.defaultLoa;
  const authenticatedAt = new Date();
  await move(db, change, "authentication_succeeded", {
    loa,
    // funnel stamps: authenticated implies started, even for a flow that skipped the start
    authenticatedAt,
    startedAt: v.startedAt ?? authenticatedAt,
  });
  recordEvent(change, "verification.user.authentication_succeeded", { result: eventResult(provider, loa) });
  const workflow = await plannedWorkflowOf(db, change);
  const checks = workflow
    ? runChecks(workflow, v.verificationNodeId, { provider, identity, loa })
    : ({
        outcome: "failed",
        reason: "workflow_deleted",
        failedNodeId: "",
        message: "The workflow was deleted",
        path: [],
      } as const);

  if (checks.outcome === "failed") {
    const failed = await move(db, change, "reject", {
      statusReason: checks.reason,
      upstreamEncrypted: null,
    });
    recordEvent(change, "verification.failed", {
      metadata: { reason: checks.reason, ...(checks.failedNodeId ? { nodeId: checks.failedNodeId } : {}) },
      result: eventResult(provider, loa),
    });
    change.decision = decisionRow(failed, workflow, { kind: "checked", provider, identity, loa, checks });
    return;
  }

  const verifiedAt = new Date();
  const sub = subjectFor(provider.id, identity.upstreamSubject);
  const provenance = buildProvenance(provider, identity, {
    verificationId: v.id,
    verifiedAt,
    flowType: parseFlowType(v.flowType),
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
    provenance,
    ...(identity.match ? { match: { ...identity.match } } : {}),
  };
  const evidence: TEvidence = { token: identity.evidence, names: Object.keys(identity.evidence).join(";") };
  const completed = await move(db, change, "complete", {
    verifiedAt,
    subject: sub,
    resultEncrypted: seal(userinfo),
    evidenceEncrypted: seal(evidence),
    upstreamEncrypted: null,
  });
  recordEvent(change, "verification.completed", { result: eventResult(provider, loa) });
  change.decision = decisionRow(completed, workflow, { kind: "checked", provider, identity, loa, checks });
}

async function fail(
  db: Db,
  change: TSessionChange,
  provider: TProviderDefinition,
  adapterReason: string,
): Promise<void> {
  // an upstream fault of a production session is provider_unavailable for the integrator
  const reason = integratorReason(change.row.environment, adapterReason);
  const failed = await move(db, change, "authentication_failed", {
    statusReason: reason,
    upstreamEncrypted: null,
    // funnel stamp: the provider answered, so the end-user had started
    startedAt: change.row.startedAt ?? new Date(),
  });
  recordEvent(change, "verification.user.authentication_failed", { metadata: { reason } });
  recordEvent(change, "verification.failed", { metadata: { reason } });
  change.decision = decisionRow(failed, await currentWorkflowOf(db, change), {
    kind: "unauthenticated",
    provider,
    reason,
  });
}

/**
 * Applies what the provider (or the simulator) answered to a locked session and writes the
 * change (one statement), then the production-test participation of a session that ended
 * completed or failed (in the same transaction).
 */
export async function settleOutcome(
  db: Db,
  change: TSessionChange,
  outcome: TAdapterOutcome,
): Promise<Verification> {
  const provider = findProvider(change.row.providerId);
  if (!provider) throw new Error(`provider ${change.row.providerId} vanished from the catalog`);
  switch (outcome.kind) {
    case "success":
      await complete(db, change, provider, outcome.identity);
      break;
    case "failure":
      await fail(db, change, provider, outcome.reason);
      break;
    case "cancelled":
      await applyCancel(db, change, "user");
      break;
    case "expired":
      await applyExpiry(db, change);
      break;
  }
  const settled = await saveChange(db, change);
  if (settled.status === "completed" || settled.status === "failed")
    await participate(db, settled, settled.status === "completed");
  return settled;
}

/** Applies what the provider (or the simulator) answered; used by every adapter's return path. */
export async function applyAdapterOutcome(
  db: Db,
  verificationId: string,
  outcome: TAdapterOutcome,
): Promise<Verification> {
  return settleOutcome(db, await lockSession(db, verificationId), outcome);
}
