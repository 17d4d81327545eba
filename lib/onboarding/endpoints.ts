/** Endpoint definition of the first-run checklist (see lib/http/endpoint.ts; rules in checklist.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";

export const CHECKLIST_STEPS = ["app", "test_verification", "webhook", "teammate", "production"] as const;
export type TChecklistStepId = (typeof CHECKLIST_STEPS)[number];

export const ZChecklistJson = z.object({
  steps: z
    .array(z.object({ id: z.enum(CHECKLIST_STEPS), done: z.boolean() }))
    .describe("The five steps, in the order an integrator takes them"),
  done: z.boolean().describe("Every step is done"),
});
export type TChecklist = z.infer<typeof ZChecklistJson>;

export const getChecklist = endpoint({
  method: "GET",
  path: "/v1/workspace/checklist",
  operationId: "getWorkspaceChecklist",
  summary: "First-run checklist",
  description:
    "Whether each first step of the workspace has happened: `app` (an app exists), `test_verification` (a sandbox verification ran), `webhook` (an app has a webhook URL), `teammate` (another member, or an open invitation), `production` (a provider activation submitted in production, or a production test requested). Workspace-wide: the same under /api/sandbox and /api/production.",
  tag: "Workspace",
  auth: "workspace",
  responses: { 200: { description: "The checklist", schema: ZChecklistJson } },
});
