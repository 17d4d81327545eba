/**
 * Applying what the identity provider (or the simulator) answered to a session: every adapter's
 * return path ends here.
 * Rules:
 * - success: user.authentication_succeeded, then the workflow's checks run on the version the
 *   session was planned on; they pass → completed (userinfo and evidence sealed), they fail →
 *   failed with the check's reason; a deleted workflow fails the session;
 * - failure: user.authentication_failed, then failed; cancel and expiry as in transitions.ts;
 * - an outcome's events (authentication succeeded or failed, then completed or failed) are
 *   written together, in this order, in one statement (lib/webhooks/events.ts);
 * - the funnel stamps authenticatedAt (and startedAt, for a flow that skipped the start) are
 *   written by their transitions, in the same update;
 * - a session that ends completed or failed gets its decision record (decisions.ts) and, when it
 *   takes part in a production-test challenge, its participation, in the same transaction.
 */
import type { Tx } from "../db/client";
import type { Verification } from "../db/generated/client";
import { subjectFor } from "../oidc/subject";
import { claimStamp, recordParticipation } from "../production-tests/participation";
import { buildProvenance } from "../providers/adapters/provenance";
import type { TAdapterOutcome, TSourceIdentity } from "../providers/adapters/types";
import { findProvider, parseFlowType, type TProviderDefinition } from "../providers/catalog";
import { emitVerificationEvents, type TEventSpec } from "../webhooks/events";
import { runChecks } from "../workflows/engine";
import { runnableWorkflow } from "../workflows/row";
import { plannedWorkflow } from "./create";
import { recordDecision } from "./decisions";
import type { TEvidence, TUserinfo } from "./endpoints";
import { acrFor, loaLabel } from "./loa";
import { seal } from "./personal-data";
import { cancelSession, expireSession, lockVerification, move } from "./transitions";

function eventResult(provider: TProviderDefinition, loa: number) {
  return {
    loa: acrFor(loa),
    amr: [provider.id],
    channel: { type: provider.channel.type, transport: provider.channel.transport },
  };
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
  // written with the outcome's own event below, in one statement, in this order
  const succeededEvent: TEventSpec = {
    type: "verification.user.authentication_succeeded",
    result: eventResult(provider, loa),
    verification: succeeded,
  };
  const workflow = await plannedWorkflow(db, v);
  const checks = workflow
    ? runChecks(runnableWorkflow(workflow), v.verificationNodeId, { provider, identity, loa })
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
    await emitVerificationEvents(db, failed, [
      succeededEvent,
      {
        type: "verification.failed",
        metadata: { reason: checks.reason, ...(checks.failedNodeId ? { nodeId: checks.failedNodeId } : {}) },
        result: eventResult(provider, loa),
      },
    ]);
    await recordDecision(db, failed, { kind: "checked", provider, workflow, identity, loa, checks });
    await participate(db, failed, false);
    return failed;
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
  const completed = await move(db, succeeded, "complete", {
    verifiedAt,
    subject: sub,
    resultEncrypted: seal(userinfo),
    evidenceEncrypted: seal(evidence),
    upstreamEncrypted: null,
  });
  await emitVerificationEvents(db, completed, [
    succeededEvent,
    { type: "verification.completed", result: eventResult(provider, loa) },
  ]);
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
      await emitVerificationEvents(db, failed, [
        { type: "verification.user.authentication_failed", metadata: { reason: outcome.reason } },
        { type: "verification.failed", metadata: { reason: outcome.reason } },
      ]);
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
