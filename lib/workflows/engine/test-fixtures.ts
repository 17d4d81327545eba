/**
 * Builders for the engine's unit tests: small workflows (checked against validate.ts, so the
 * tests run workflows the API would accept) and source identities from the catalog's sandbox
 * test identities.
 */
import type { TSourceIdentity } from "../../providers/adapters/types";
import { findProvider, type TProviderDefinition } from "../../providers/catalog";
import type { TTestScenario } from "../../providers/identities";
import type { TWorkflowNode } from "../json";
import { validateWorkflow } from "../validate";
import type { TRunnableWorkflow } from "./nodes";

export const NOW = new Date("2026-06-15T12:00:00Z");

export function provider(id: string): TProviderDefinition {
  const found = findProvider(id);
  if (!found) throw new Error(`no catalog provider ${id}`);
  return found;
}

/** A workflow from nodes; throws unless validate.ts accepts it for an app with `appProviderIds`. */
export function workflow(
  nodes: TWorkflowNode[],
  appProviderIds: readonly string[] = [
    "passport",
    "de_eid",
    "nl_digid",
    "bank_data_match",
    "in_aadhaar_match",
  ],
): TRunnableWorkflow {
  const wf = { entryNodeId: nodes[0]!.id, nodes };
  const issues = validateWorkflow(wf, { appProviderIds });
  if (issues.length > 0) throw new Error(`test workflow is invalid: ${JSON.stringify(issues)}`);
  return wf;
}

/** A workflow as stored, without validation (for the defects validation would refuse). */
export function unchecked(nodes: TWorkflowNode[], entryNodeId = nodes[0]!.id): TRunnableWorkflow {
  return { entryNodeId, nodes };
}

export const requestNode = (next = "verification"): TWorkflowNode => ({
  id: "request",
  type: "request",
  next,
});
export const responseNode = (id = "response"): TWorkflowNode => ({ id, type: "response" });

export function verificationNode(
  config: Record<string, unknown> = {},
  next = "response",
  id = "verification",
): TWorkflowNode {
  return {
    id,
    type: "verification",
    next,
    config: { channel: "api", claims: ["given_name", "family_name", "birthdate"], ...config },
  };
}

/** request → verification → …middle → response, each middle node linked to the next. */
export function linear(
  verification: Record<string, unknown>,
  middle: TWorkflowNode[] = [],
): TRunnableWorkflow {
  const chain = middle.map((n, i) => ({ ...n, next: middle[i + 1]?.id ?? "response" }));
  return workflow([
    requestNode(),
    verificationNode(verification, chain[0]?.id ?? "response"),
    ...chain,
    responseNode(),
  ]);
}

export function identity(
  claims: Record<string, unknown>,
  loa: number | null = null,
  extra: Partial<TSourceIdentity> = {},
): TSourceIdentity {
  return { upstreamSubject: "subject-1", claims, loa, rawClaims: { ...claims }, evidence: {}, ...extra };
}

/** The source identity a provider's simulator returns for one of its test identities. */
export function catalogIdentity(
  providerId: string,
  scenario: TTestScenario,
): { provider: TProviderDefinition; identity: TSourceIdentity; loa: number } {
  const p = provider(providerId);
  const test = p.testIdentities.find((t) => t.scenario === scenario);
  if (!test) throw new Error(`${providerId} has no ${scenario} identity`);
  const source = identity({ ...test.claims }, test.loa, { upstreamSubject: test.id });
  return { provider: p, identity: source, loa: source.loa ?? p.defaultLoa };
}
