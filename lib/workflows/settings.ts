/**
 * App verification settings (GET /v1/apps/{client_id}/verification), derived — never stored.
 * Rules:
 * - the source is the default workflow's first verification node, breadth-first from the entry
 *   (next, then, else): verification_type is age_verification when that node is in that mode,
 *   else identity; request_attributes are its claims;
 * - providers: one entry per provider added to the app (AppProvider rows), by id; enabled when the
 *   app has it enabled and the node does not opt it out; provider_specific_attributes are the
 *   claims its catalog scopes give beyond the OIDC standard claims ([] for unknown providers);
 * - minimum_age (age_verification only, else null) and branding (what the hosted pages show:
 *   useAppBranding, the node's own name and logo) come from the same node;
 * - an app without a default workflow or verification node reads as identity with no attributes.
 */
import type { z } from "zod";
import { findProvider } from "../providers/catalog";
import { providerSpecificClaims } from "./claims";
import type { ZVerificationSettingsJson } from "./endpoints";
import { firstVerificationNode } from "./graph";
import type { TWorkflowNode } from "./json";
import type { TVerificationConfig } from "./schema";

export type TVerificationSettings = z.infer<typeof ZVerificationSettingsJson>;

export function deriveVerificationSettings(
  appProviders: readonly { providerId: string; enabled: boolean }[],
  workflow: { entryNodeId: string; nodes: readonly TWorkflowNode[] } | undefined,
): TVerificationSettings {
  const node = workflow ? firstVerificationNode(workflow.nodes, workflow.entryNodeId) : undefined;
  const config = (node?.config ?? {}) as Partial<TVerificationConfig>;
  const overrides = config.providers ?? {};
  return {
    verification_type: config.mode === "age_verification" ? "age_verification" : "identity",
    request_attributes: Array.isArray(config.claims) ? [...config.claims] : [],
    minimum_age: config.mode === "age_verification" ? (config.minimumAge ?? null) : null,
    branding: {
      useAppBranding: config.branding?.useAppBranding === true,
      name: config.branding?.name ?? null,
      logo: config.branding?.logo ?? null,
    },
    providers: [...appProviders]
      .sort((a, b) => a.providerId.localeCompare(b.providerId))
      .map((p) => {
        const definition = findProvider(p.providerId);
        return {
          provider_id: p.providerId,
          enabled: p.enabled && overrides[p.providerId]?.enabled !== false,
          provider_specific_attributes: definition ? providerSpecificClaims(definition.scopes) : [],
        };
      }),
  };
}
