/**
 * Test runs (sandbox only): a draft workflow run by the real engine for one sandbox test identity,
 * creating nothing. The editor shows the path taken and what the integrator would receive.
 * Rules:
 * - the draft is validated like create/PATCH against the app's providers; problems are a 400 with
 *   validate.ts's details (paths relative to the draft, each with the node's id);
 * - the provider must be in the catalog and usable by the draft as a session would find it: the
 *   app has it activated and enabled, and the draft accepts it (planVerification) — else a 400
 *   naming providerId; the identity must be one of that provider's test identities (400 naming
 *   identityId);
 * - the identity's answer comes from the sandbox simulator exactly as a sandbox session gets it
 *   (simulateOutcome): claims restricted to what the provider offers, the identity's LoA (else the
 *   provider's default) and, for match providers, the verdicts of comparing what the integrator
 *   knows about the provider's first `success` person with the identity's register record (so
 *   the `mismatch` identity mismatches);
 * - the checks are runChecks on the draft; `claims` is the engine's disclosure (userinfo's
 *   `user`: age_verification gives only age_over_<n>, match providers the verified subset);
 * - identities that never authenticate end failed at the verification node with the reason the
 *   session would get: authentication_failed, cancelled_by_user, session_timed_out; their LoA
 *   is 0 (unspecified).
 */
import type { z } from "zod";
import { invalidField } from "../errors";
import { validationError } from "../errors/validation";
import type { AppRow } from "../apps/serialize";
import { simulateOutcome } from "../providers/adapters/simulator";
import { findProvider, type TProviderDefinition } from "../providers/catalog";
import type { TTestIdentity } from "../providers/identities";
import { planVerification } from "./engine/plan";
import { runChecks } from "./engine/run";
import type { TRunnableWorkflow } from "./engine/nodes";
import { traceChecks, traceUnauthenticated, type TWorkflowTrace } from "./engine/trace";
import type { TWorkflowNode } from "./json";
import { normalizeNodes } from "./defaults";
import type { TWorkflowNodeInput } from "./schema";
import type { ZTestRunJson } from "./run-endpoints";
import { validateWorkflow, withNodeIds } from "./validate";

export interface TDraftInput {
  entryNodeId: string;
  nodes: TWorkflowNodeInput[];
}

export type TTestRunResult = z.infer<typeof ZTestRunJson>;

/** The reason a session gets when its identity never authenticates (statusReason). */
const UNAUTHENTICATED_REASON = { cancelled: "cancelled_by_user", expired: "session_timed_out" } as const;

/** Validates an editor's draft against the app's providers; 400 with validate.ts's details. */
export function checkedDraft(app: AppRow, draft: TDraftInput): TRunnableWorkflow {
  const nodes: TWorkflowNode[] = normalizeNodes(draft.nodes);
  const issues = validateWorkflow(
    { entryNodeId: draft.entryNodeId, nodes },
    { appProviderIds: app.providers.map((p) => p.providerId) },
  );
  if (issues.length > 0) throw validationError(withNodeIds(issues, nodes), "Invalid workflow");
  return { entryNodeId: draft.entryNodeId, nodes };
}

export function findTestProvider(providerId: string): TProviderDefinition {
  const provider = findProvider(providerId);
  if (!provider) throw invalidField("providerId", `unknown provider "${providerId}"`);
  return provider;
}

export function findTestIdentity(provider: TProviderDefinition, identityId: string): TTestIdentity {
  const identity = provider.testIdentities.find((t) => t.id === identityId);
  if (!identity)
    throw invalidField(
      "identityId",
      `"${identityId}" is not a test identity of provider ${provider.id}; see GET /v1/sandbox/identities?providerId=${provider.id}`,
    );
  return identity;
}

/**
 * What an integrator knows about a match provider's first `success` person, in the OIDC keys
 * matchData takes: the test run submits it, as a sandbox integrator would for that customer.
 */
export function knownCustomerData(provider: TProviderDefinition): Record<string, unknown> {
  const person = provider.testIdentities.find((t) => t.scenario === "success");
  const data: Record<string, unknown> = {};
  for (const [claim, value] of Object.entries(person?.claims ?? {})) {
    if (typeof value === "string" && value.trim() !== "") data[claim] = value;
    else if (claim === "address" && value && typeof value === "object") {
      const formatted = (value as { formatted?: unknown }).formatted;
      if (typeof formatted === "string") data[claim] = formatted;
    }
  }
  return data;
}

function appProvidersOf(app: AppRow): Record<string, { enabled: boolean }> {
  return Object.fromEntries(
    app.providers.map((p) => [p.providerId, { enabled: p.enabled && p.status === "activated" }]),
  );
}

/** Runs `workflow` (already valid) for one test identity through the engine; creates nothing. */
export function traceTestIdentity(
  app: AppRow,
  workflow: TRunnableWorkflow,
  providerId: string,
  identityId: string,
  now = new Date(),
): { trace: TWorkflowTrace; loa: number } {
  const provider = findTestProvider(providerId);
  findTestIdentity(provider, identityId);
  // PROVIDER_NOT_AVAILABLE (400 naming providerId) when the app or the draft does not accept it
  const plan = planVerification(workflow, {
    providerId: provider.id,
    provider,
    appProviders: appProvidersOf(app),
  });
  const answer = simulateOutcome(provider, {
    outcome: "success",
    identityId,
    ...(provider.verificationModel === "match" ? { matchData: knownCustomerData(provider) } : {}),
    reference: "test-run",
    at: now,
  });
  if (answer.kind !== "success") {
    const reason = answer.kind === "failure" ? answer.reason : UNAUTHENTICATED_REASON[answer.kind];
    return { trace: traceUnauthenticated(plan.path, plan.verificationNodeId, reason), loa: 0 };
  }
  const loa = answer.identity.loa ?? provider.defaultLoa;
  const checks = runChecks(workflow, plan.verificationNodeId, {
    provider,
    identity: answer.identity,
    loa,
    now,
  });
  return { trace: traceChecks(plan.path, plan.verificationNodeId, checks), loa };
}

export function toTestRunResult(trace: TWorkflowTrace, loa: number): TTestRunResult {
  return {
    outcome: trace.outcome,
    ...(trace.reason ? { reasonCode: trace.reason } : {}),
    path: trace.path,
    nodes: trace.nodes,
    loa,
    claims: trace.user,
  };
}

/** POST …/workflows/test-run on an app already loaded for the caller. */
export function testRunDraft(
  app: AppRow,
  input: { workflow: TDraftInput; providerId: string; identityId: string },
): TTestRunResult {
  const workflow = checkedDraft(app, input.workflow);
  const { trace, loa } = traceTestIdentity(app, workflow, input.providerId, input.identityId);
  return toTestRunResult(trace, loa);
}
