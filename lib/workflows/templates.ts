/**
 * Workflow templates (GET …/workflows/templates): ready-made workflows the editor offers when a
 * workflow is created. Creating from one is a plain POST …/workflows with its `workflow`.
 * Rules (templates.test.ts keeps them so):
 * - every template passes validate.ts for an app whose providers are its requiredProviders, and
 *   names exactly those providers in its verification node (so validation refuses it for an app
 *   without them, naming the provider);
 * - `missingProviders` are the required providers that are not activated and enabled for the app;
 * - node positions are laid out top to bottom in walk order, one row per node;
 * - verification nodes carry branding.useAppBranding = true, as creation would add it anyway.
 */
import type { z } from "zod";
import type { AppProvider } from "../db/rows";
import { STARTER_PROVIDER_ID } from "./starter";
import type { TNodePositions, TWorkflowNode } from "./json";
import type { ZWorkflowTemplateJson } from "./endpoints";

export type TWorkflowTemplateJson = z.infer<typeof ZWorkflowTemplateJson>;
/** A template as defined here; the listing adds the providers the app lacks. */
export type TWorkflowTemplate = Omit<TWorkflowTemplateJson, "missingProviders">;
export type TTemplateWorkflow = TWorkflowTemplate["workflow"];

const HIGH_ASSURANCE_PROVIDER_ID = "de_eid";
const MATCH_PROVIDER_ID = "bank_data_match";

export const TEMPLATE_ROW_HEIGHT = 120;
export const TEMPLATE_COLUMN_X = 0;

/** One row per node, in the order given (the templates list them in walk order). */
export function layoutTopToBottom(nodes: readonly TWorkflowNode[]): TNodePositions {
  return Object.fromEntries(
    nodes.map((n, i) => [n.id, { x: TEMPLATE_COLUMN_X, y: i * TEMPLATE_ROW_HEIGHT }]),
  );
}

function only(providerId: string) {
  return { [providerId]: { enabled: true } };
}

function template(
  t: Omit<TWorkflowTemplate, "workflow"> & { workflowName: string; nodes: TWorkflowNode[] },
): TWorkflowTemplate {
  const { workflowName, nodes, ...rest } = t;
  return {
    ...rest,
    workflow: { name: workflowName, entryNodeId: nodes[0]!.id, nodes, positions: layoutTopToBottom(nodes) },
  };
}

const IDENTITY_CLAIMS = ["given_name", "family_name", "birthdate", "nationality"];

export const WORKFLOW_TEMPLATES: readonly TWorkflowTemplate[] = [
  template({
    id: "full_identity",
    name: "Full identity",
    description:
      "Verifies name, date of birth and nationality from a passport chip, requires each of them and at least substantial assurance (LoA 2).",
    requiredProviders: [STARTER_PROVIDER_ID],
    workflowName: "Full identity",
    nodes: [
      { id: "request", type: "request", next: "verify" },
      {
        id: "verify",
        type: "verification",
        next: "require_claims",
        config: {
          channel: "oidc",
          claims: IDENTITY_CLAIMS,
          mode: "pii",
          branding: { useAppBranding: true },
          providers: only(STARTER_PROVIDER_ID),
        },
      },
      {
        id: "require_claims",
        type: "check-claim",
        next: "min_loa",
        config: { claimChecks: IDENTITY_CLAIMS.map((field) => ({ source: "user", field })) },
      },
      { id: "min_loa", type: "check-min-loa", next: "response", config: { minLoa: 2 } },
      { id: "response", type: "response" },
    ],
  }),
  template({
    id: "age_over_18",
    name: "Age over 18",
    description:
      "Checks that the person is at least 18 from the passport's date of birth and discloses only the answer (age_over_18), no personal data.",
    requiredProviders: [STARTER_PROVIDER_ID],
    workflowName: "Age over 18",
    nodes: [
      { id: "request", type: "request", next: "verify_age" },
      {
        id: "verify_age",
        type: "verification",
        next: "response",
        config: {
          channel: "oidc",
          claims: ["birthdate"],
          mode: "age_verification",
          minimumAge: 18,
          branding: { useAppBranding: true },
          providers: only(STARTER_PROVIDER_ID),
        },
      },
      { id: "response", type: "response" },
    ],
  }),
  template({
    id: "high_assurance",
    name: "High assurance",
    description:
      "Verifies the person with the German eID card and refuses anything below high assurance (LoA 3), for regulated onboarding.",
    requiredProviders: [HIGH_ASSURANCE_PROVIDER_ID],
    workflowName: "High assurance",
    nodes: [
      { id: "request", type: "request", next: "verify" },
      {
        id: "verify",
        type: "verification",
        next: "min_loa",
        config: {
          channel: "oidc",
          claims: [...IDENTITY_CLAIMS, "address"],
          mode: "pii",
          branding: { useAppBranding: true },
          providers: only(HIGH_ASSURANCE_PROVIDER_ID),
        },
      },
      { id: "min_loa", type: "check-min-loa", next: "response", config: { minLoa: 3 } },
      { id: "response", type: "response" },
    ],
  }),
  template({
    id: "match_known_customer",
    name: "Match a known customer",
    description:
      "Confirms the data you already hold about a customer (name, date of birth) against their bank's record, field by field, without collecting new personal data. Only the match provider is accepted.",
    requiredProviders: [MATCH_PROVIDER_ID],
    workflowName: "Match known customer",
    nodes: [
      { id: "request", type: "request", next: "match_provider_only" },
      {
        id: "match_provider_only",
        type: "evaluate",
        next: "match",
        config: {
          conditions: [{ source: "provider", op: "equals", value: MATCH_PROVIDER_ID }],
          reasonCode: "provider_not_accepted",
        },
      },
      {
        id: "match",
        type: "verification",
        next: "require_match",
        config: {
          channel: "oidc",
          claims: ["given_name", "family_name", "birthdate"],
          mode: "pii",
          branding: { useAppBranding: true },
          providers: only(MATCH_PROVIDER_ID),
        },
      },
      {
        id: "require_match",
        type: "check-claim",
        next: "response",
        config: {
          claimChecks: ["given_name", "family_name", "birthdate"].map((field) => ({ source: "user", field })),
        },
      },
      { id: "response", type: "response" },
    ],
  }),
];

/** The templates with the providers each still needs on this app. */
export function listWorkflowTemplates(
  appProviders: readonly Pick<AppProvider, "providerId" | "status" | "enabled">[],
): TWorkflowTemplateJson[] {
  const usable = new Set(
    appProviders.filter((p) => p.status === "activated" && p.enabled).map((p) => p.providerId),
  );
  return WORKFLOW_TEMPLATES.map((t) => ({
    ...structuredClone(t),
    missingProviders: t.requiredProviders.filter((id) => !usable.has(id)),
  }));
}
