/**
 * The starter workflow every new app gets (spec, App rule 1): request → verification with the
 * passport provider → response, so verifications can run at once. It is an ordinary workflow:
 * it passes validate.ts for an app whose providers include passport (a test keeps it so).
 */
import type { TWorkflowNode } from "./json";

export const STARTER_PROVIDER_ID = "passport";

export type { TWorkflowNode } from "./json";

export function starterWorkflow(): { name: string; entryNodeId: string; nodes: TWorkflowNode[] } {
  return {
    name: "Default workflow",
    entryNodeId: "request",
    nodes: [
      { id: "request", type: "request", next: "verification" },
      {
        id: "verification",
        type: "verification",
        next: "response",
        config: {
          channel: "oidc",
          claims: ["given_name", "family_name", "birthdate", "nationality"],
          mode: "pii",
          branding: { useAppBranding: true },
          providers: { [STARTER_PROVIDER_ID]: { enabled: true } },
        },
      },
      { id: "response", type: "response" },
    ],
  };
}
