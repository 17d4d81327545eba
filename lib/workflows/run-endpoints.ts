/**
 * Endpoint definitions of workflow runs for the visual editor (see lib/http/endpoint.ts): test
 * runs, what-if over recorded sessions and regression cases. Test runs and cases use sandbox test
 * identities, so they exist in the sandbox only (404 ROUTE_NOT_FOUND in production).
 */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { MAX_NODES, ZWorkflowName, ZWorkflowNodeInput } from "./schema";

const TAG = "Workflows";

/** What a regression case expects of its run (cases.ts; `workflow_cases.expected_outcome`). */
export const EXPECTED_OUTCOMES = ["completed", "failed"] as const;
export type TExpectedOutcome = (typeof EXPECTED_OUTCOMES)[number];
/** What-if (what-if.ts): the most recorded sessions one run replays, and changed examples it shows. */
export const WHAT_IF_MAX_SESSIONS = 1000;
export const WHAT_IF_MAX_EXAMPLES = 20;
const str = () => z.string({ error: "must be a string" });

/** An editor's draft: `name` and `positions` are accepted so the draft can be sent as held, and ignored. */
export const ZWorkflowDraft = z.strictObject(
  {
    entryNodeId: str().describe("Id of the `request` node"),
    nodes: z
      .array(ZWorkflowNodeInput, { error: "must be an array of nodes" })
      .max(MAX_NODES, `must contain at most ${MAX_NODES} nodes`),
    name: str().optional().describe("Ignored"),
    positions: z.record(z.string(), z.unknown()).optional().describe("Ignored"),
  },
  { error: "must be a workflow object {entryNodeId, nodes}" },
);

const DRAFT_NOTE =
  "The draft is validated like POST …/workflows against the app's providers; an invalid one is 400 VALIDATION_ERROR whose `details` are those of POST …/workflows/validate (paths relative to `workflow`, e.g. `nodes[2].config.claims[0]`, with `nodeId`).";

export const ZTestRunBody = z.strictObject({
  workflow: ZWorkflowDraft,
  providerId: str().min(1, "must not be empty").describe("A provider of the app"),
  identityId: str()
    .min(1, "must not be empty")
    .describe("A test identity of the provider (GET /v1/sandbox/identities?providerId=…)"),
});
export type TTestRunBody = z.infer<typeof ZTestRunBody>;

const ZNodeResultJson = z.object({
  result: z.enum(["passed", "failed"]),
  reason: z.string().optional().describe("The engine's reason code of the node that failed the run"),
});

export const ZTestRunJson = z.object({
  outcome: z.enum(["completed", "failed"]),
  reasonCode: z
    .string()
    .optional()
    .describe(
      "Failed only: missing_claim, loa_too_low, an evaluate node's reasonCode, authentication_failed, …",
    ),
  path: z.array(z.string()).describe("Node ids in the order visited, from the entry node"),
  nodes: z.record(z.string(), ZNodeResultJson).describe("The result of every node on the path"),
  loa: z.number().int().describe("The effective level of assurance; 0 when the identity never authenticated"),
  claims: z
    .record(z.string(), z.unknown())
    .describe("What userinfo would disclose as `user` (age_verification: only age_over_<n>)"),
});

export const testRunWorkflow = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/workflows/test-run",
  operationId: "testRunWorkflow",
  summary: "Test-run a draft workflow (sandbox)",
  description:
    "Runs the draft through the workflow engine for one sandbox test identity of `providerId`, as a sandbox session would get it (claims, LoA and, for match providers, the verdicts of comparing the provider's first test person with the identity's record). Creates nothing. " +
    "A provider the app has not activated and enabled, or that the draft does not accept, is 400 PROVIDER_NOT_AVAILABLE naming `providerId`; an unknown identity 400 naming `identityId`. Identities that never authenticate (failure, cancel, expiry) end failed at the verification node with authentication_failed, cancelled_by_user or session_timed_out. " +
    DRAFT_NOTE +
    " Sandbox only: 404 in production.",
  tag: TAG,
  auth: "workspace",
  sandboxOnly: true,
  permission: "read",
  transaction: false,
  body: ZTestRunBody,
  responses: { 200: { description: "The run", schema: ZTestRunJson } },
});

export const ZWhatIfBody = z.strictObject({
  workflow: ZWorkflowDraft,
  workflowId: str().min(1, "must not be empty").optional().describe("Only sessions that ran this workflow"),
  limit: z
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(WHAT_IF_MAX_SESSIONS, `must be at most ${WHAT_IF_MAX_SESSIONS}`)
    .optional()
    .describe(`How many of the most recent sessions (default ${WHAT_IF_MAX_SESSIONS})`),
});
export type TWhatIfBody = z.infer<typeof ZWhatIfBody>;

const ZRunSummaryJson = z.object({
  outcome: z.enum(["completed", "failed"]),
  reasonCode: z.string().optional(),
  path: z.array(z.string()),
});

export const ZWhatIfJson = z.object({
  total: z.number().int().describe("Sessions considered"),
  changedOutcomes: z.number().int().describe("Sessions whose outcome (completed / failed) would change"),
  changedPaths: z.number().int().describe("Sessions whose path would change"),
  cannotTell: z
    .number()
    .int()
    .describe(
      "Sessions the draft cannot be evaluated on: it tests a claim value their record does not answer (not counted as changed)",
    ),
  examples: z
    .array(
      z.object({
        verificationId: z.string(),
        createdAt: z.string().describe("ISO 8601 date-time the session was created"),
        before: ZRunSummaryJson,
        after: ZRunSummaryJson,
      }),
    )
    .max(WHAT_IF_MAX_EXAMPLES)
    .describe(`Up to ${WHAT_IF_MAX_EXAMPLES} changed sessions, outcome changes first`),
});

export const whatIfWorkflow = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/workflows/what-if",
  operationId: "whatIfWorkflow",
  summary: "Re-run a draft over recent sessions",
  description:
    "Re-runs the draft through the workflow engine over the app's most recent ended (completed or failed) sessions, newest first, from their decision records — no personal data: the provider, LoA, which claims were present, and the answers to the claim-value tests of the workflow the session ran. A draft that tests a claim value a record cannot answer counts that session in `cannotTell`. " +
    DRAFT_NOTE,
  tag: TAG,
  auth: "workspace",
  permission: "read",
  transaction: false,
  body: ZWhatIfBody,
  responses: { 200: { description: "What would change", schema: ZWhatIfJson } },
});

export const ZCaseJson = z.object({
  id: z.string(),
  name: z.string(),
  providerId: z.string(),
  identityId: z.string(),
  expectedOutcome: z.enum(EXPECTED_OUTCOMES),
  result: z.object({
    outcome: z.enum(["completed", "failed"]),
    reasonCode: z.string().optional(),
    passed: z.boolean().describe("outcome equals expectedOutcome"),
  }),
});

export const ZCreateCaseBody = z.strictObject({
  name: ZWorkflowName,
  providerId: str().min(1, "must not be empty").describe("A catalog provider"),
  identityId: str().min(1, "must not be empty").describe("A test identity of the provider"),
  expectedOutcome: z.enum(EXPECTED_OUTCOMES, { error: "must be one of: completed, failed" }),
});

export const ZRunCasesBody = z.strictObject({ workflow: ZWorkflowDraft });

const CASES_NOTE = " Sandbox only: 404 in production.";

export const listWorkflowCases = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}/cases",
  operationId: "listWorkflowCases",
  summary: "List a workflow's regression cases (sandbox)",
  description:
    "Oldest first, each with its `result` computed now against the latest saved workflow. A case the workflow cannot run (provider not enabled or refused) is failed with reasonCode provider_not_available." +
    CASES_NOTE,
  tag: TAG,
  auth: "workspace",
  sandboxOnly: true,
  responses: { 200: { description: "The cases", schema: z.array(ZCaseJson) } },
});

export const createWorkflowCase = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}/cases",
  operationId: "createWorkflowCase",
  summary: "Save a regression case (sandbox)",
  description:
    "A test identity of a catalog provider and the outcome the workflow should give it; answered with its result against the latest saved workflow." +
    CASES_NOTE,
  tag: TAG,
  auth: "workspace",
  sandboxOnly: true,
  body: ZCreateCaseBody,
  responses: { 201: { description: "The new case", schema: ZCaseJson } },
});

export const deleteWorkflowCase = endpoint({
  method: "DELETE",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}/cases/{case_id}",
  operationId: "deleteWorkflowCase",
  summary: "Delete a regression case (sandbox)",
  description: "404 when the id is not a case of this workflow." + CASES_NOTE,
  tag: TAG,
  auth: "workspace",
  sandboxOnly: true,
  responses: { 200: { description: "Deleted", schema: z.object({ deleted: z.boolean() }) } },
});

export const runWorkflowCases = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}/cases/run",
  operationId: "runWorkflowCases",
  summary: "Run the regression cases on a draft (sandbox)",
  description:
    "The workflow's cases with their `result` computed against the draft instead of the saved workflow; nothing is stored. " +
    DRAFT_NOTE +
    CASES_NOTE,
  tag: TAG,
  auth: "workspace",
  sandboxOnly: true,
  permission: "read",
  transaction: false,
  body: ZRunCasesBody,
  responses: { 200: { description: "The cases with results for the draft", schema: z.array(ZCaseJson) } },
});
