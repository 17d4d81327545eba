/**
 * Request bodies of the Workflows API and the config schema of every node type.
 * Rules:
 * - unknown fields are refused everywhere: in the body, in a node, and in a node's config;
 * - the body parser checks shapes only (strings are strings, nodes are objects); what the values
 *   mean — ids, types, edges, claims, providers — is checked by validate.ts, which names the node;
 * - `next`, `then`, `else` and `config` may be sent as null, which means absent (editors tend to
 *   serialize empty links that way);
 * - names are trimmed, 1–100 characters; a workflow has at most 200 nodes.
 */
import { z } from "zod";
import { memberParser } from "../state-machine";
import { isKnownClaim, KNOWN_CLAIMS } from "./claims";

export const MAX_NODES = 200;
export const MAX_NAME_LENGTH = 100;

// ---------------------------------------------------------------------------------------------
// Node configs. validate-config.ts parses a node's config with the schema of its type.

export const CHANNELS = ["oidc", "api"] as const;
export type TChannel = (typeof CHANNELS)[number];
/** `verifications.channel` (the channel the session was planned with) as read from its row. */
export const parseChannel = memberParser(CHANNELS, "verifications.channel");
export const VERIFICATION_MODES = ["pii", "age_verification"] as const;
export const CONDITION_SOURCES = ["claim", "loa", "provider"] as const;
export const CONDITION_OPS = [
  "exists",
  "not_exists",
  "equals",
  "not_equals",
  "in",
  "not_in",
  "gte",
  "lte",
  "age_gte",
  "age_lt",
] as const;
export const EVALUATE_OPERATORS = ["all", "any"] as const;
export const CLAIM_CHECK_SOURCES = ["user"] as const;

export const MIN_AGE_LIMIT = 1;
export const MAX_AGE_LIMIT = 150;
export const MAX_CONDITIONS = 50;
export const MAX_CLAIM_CHECKS = 50;
export const MAX_IN_VALUES = 100;
export const DEFAULT_REASON_CODE = "evaluation_failed";
export const REASON_CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

const oneOf = (values: readonly string[]) => `must be one of: ${values.join(", ")}`;
const str = () => z.string({ error: "must be a string" });

export const ZClaimName = str().refine(isKnownClaim, {
  error: (issue) =>
    `"${String(issue.input)}" is not a known claim name (GET …/workflows/node-types lists them)`,
});

export const ZBranding = z.strictObject(
  {
    name: str()
      .trim()
      .min(1, "must not be empty")
      .max(MAX_NAME_LENGTH, "must be at most 100 characters")
      .optional(),
    logo: str().optional(),
    useAppBranding: z.boolean({ error: "must be a boolean" }).optional(),
  },
  { error: "must be an object" },
);

const ZProviderOverride = z.strictObject(
  { enabled: z.boolean({ error: "must be a boolean" }) },
  { error: 'must be an object such as {"enabled": false}' },
);

export const ZVerificationConfig = z.strictObject({
  channel: z.enum(CHANNELS, { error: oneOf(CHANNELS) }),
  claims: z
    .array(ZClaimName, { error: "must be an array of claim names" })
    .min(1, "must name at least one claim")
    .max(KNOWN_CLAIMS.length, `must name at most ${KNOWN_CLAIMS.length} claims`),
  mode: z.enum(VERIFICATION_MODES, { error: oneOf(VERIFICATION_MODES) }).optional(),
  minimumAge: z
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(MIN_AGE_LIMIT, `must be at least ${MIN_AGE_LIMIT}`)
    .max(MAX_AGE_LIMIT, `must be at most ${MAX_AGE_LIMIT}`)
    .optional(),
  branding: ZBranding.optional(),
  providers: z
    .record(str(), ZProviderOverride, { error: "must be an object keyed by provider id" })
    .optional(),
});
export type TVerificationConfig = z.infer<typeof ZVerificationConfig>;

export const ZCheckClaimConfig = z.strictObject({
  claimChecks: z
    .array(
      z.strictObject(
        {
          source: z.enum(CLAIM_CHECK_SOURCES, { error: oneOf(CLAIM_CHECK_SOURCES) }),
          field: ZClaimName,
        },
        { error: "must be an object {source, field}" },
      ),
      { error: "must be an array of claim checks" },
    )
    .min(1, "must contain at least one claim check")
    .max(MAX_CLAIM_CHECKS, `must contain at most ${MAX_CLAIM_CHECKS} claim checks`),
});
export type TCheckClaimConfig = z.infer<typeof ZCheckClaimConfig>;

export const ZCheckMinLoaConfig = z.strictObject({
  minLoa: z
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(1, "must be 1, 2 or 3")
    .max(3, "must be 1, 2 or 3"),
});
export type TCheckMinLoaConfig = z.infer<typeof ZCheckMinLoaConfig>;

/** One test over the verification result; which field/op/value combinations make sense is checked by validate-config.ts. */
export const ZCondition = z.strictObject(
  {
    source: z.enum(CONDITION_SOURCES, { error: oneOf(CONDITION_SOURCES) }),
    field: ZClaimName.optional(),
    op: z.enum(CONDITION_OPS, { error: oneOf(CONDITION_OPS) }),
    value: z.unknown().optional(),
  },
  { error: "must be an object {source, field?, op, value?}" },
);
export type TCondition = z.infer<typeof ZCondition>;

export const ZEvaluateConfig = z.strictObject({
  conditions: z
    .array(ZCondition, { error: "must be an array of conditions" })
    .min(1, "must contain at least one condition")
    .max(MAX_CONDITIONS, `must contain at most ${MAX_CONDITIONS} conditions`),
  operator: z.enum(EVALUATE_OPERATORS, { error: oneOf(EVALUATE_OPERATORS) }).optional(),
  reasonCode: str()
    .regex(REASON_CODE_PATTERN, "must be 1–64 lowercase letters, digits or '_', starting with a letter")
    .optional(),
});
export type TEvaluateConfig = z.infer<typeof ZEvaluateConfig>;

export const ZIfConfig = z.strictObject({ condition: ZCondition });
export type TIfConfig = z.infer<typeof ZIfConfig>;

export const ZEmptyConfig = z.strictObject({});

// ---------------------------------------------------------------------------------------------
// Request bodies.

export const ZWorkflowName = str()
  .trim()
  .min(1, "must not be empty")
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);

const ZLink = str().nullable().optional();

export const ZWorkflowNodeInput = z.strictObject(
  {
    id: str().describe("Unique within the workflow: 1–64 letters, digits, '_' or '-'"),
    type: str().describe("A type of the node-types catalog"),
    next: ZLink.describe("Id of the following node; every node but `response` and `if` has one"),
    then: ZLink.describe("`if` only: id of the node taken when the condition holds"),
    else: ZLink.describe("`if` only: id of the node taken when it does not"),
    config: z
      .record(z.string(), z.unknown(), { error: "must be an object" })
      .nullable()
      .optional()
      .describe("Fields of the node's type, see the node-types catalog"),
  },
  { error: "must be a node object {id, type, next?, config?}" },
);
export type TWorkflowNodeInput = z.infer<typeof ZWorkflowNodeInput>;

const ZNodes = z
  .array(ZWorkflowNodeInput, { error: "must be an array of nodes" })
  .max(MAX_NODES, `must contain at most ${MAX_NODES} nodes`);

/** Canvas coordinates are plain numbers; the bound only keeps absurd values out of storage. */
export const MAX_POSITION = 1_000_000;
const ZCoordinate = z
  .number({ error: "must be a number" })
  .min(-MAX_POSITION, `must be at least -${MAX_POSITION}`)
  .max(MAX_POSITION, `must be at most ${MAX_POSITION}`);

/** Keys are node ids of the workflow (validate.ts checks that); values {x, y}. */
export const ZNodePositions = z
  .record(str(), z.strictObject({ x: ZCoordinate, y: ZCoordinate }, { error: "must be an object {x, y}" }), {
    error: "must be an object keyed by node id",
  })
  .describe("Canvas positions of the visual editor by node id, `{x, y}` each; ignored by the engine");

export const ZCreateWorkflow = z.strictObject({
  name: ZWorkflowName,
  entryNodeId: str().describe("Id of the `request` node"),
  nodes: ZNodes,
  positions: ZNodePositions.optional(),
});
export type TCreateWorkflow = z.infer<typeof ZCreateWorkflow>;

export const ZUpdateWorkflow = z.strictObject({
  name: ZWorkflowName.optional(),
  entryNodeId: str().optional(),
  nodes: ZNodes.optional().describe("Replaces all nodes"),
  positions: ZNodePositions.optional().describe(
    "Replaces all positions; when nodes change without it, positions of removed nodes are dropped",
  ),
});
export type TUpdateWorkflow = z.infer<typeof ZUpdateWorkflow>;

/**
 * POST …/workflows/validate: a draft as the editor holds it. `name` is checked in the handler
 * (an editor's half-typed name is a finding, not a malformed request).
 */
export const ZValidateWorkflow = z.strictObject({
  name: str().optional().describe("Checked like on create when given"),
  entryNodeId: str().describe("Id of the `request` node"),
  nodes: ZNodes,
  positions: ZNodePositions.optional(),
});
export type TValidateWorkflow = z.infer<typeof ZValidateWorkflow>;

export const ZSetDefaultWorkflow = z.strictObject({
  workflowId: str().min(1, "must not be empty").describe("A workflow of this app"),
});
export type TSetDefaultWorkflow = z.infer<typeof ZSetDefaultWorkflow>;

/**
 * PATCH /v1/apps/{client_id}/verification: the settings of the default workflow's first
 * verification node, in the names of the settings record. Omitted fields stay as they are.
 */
export const ZUpdateVerificationSettings = z.strictObject({
  verification_type: z
    .enum(["identity", "age_verification"], { error: "must be one of: identity, age_verification" })
    .optional(),
  minimum_age: z
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(MIN_AGE_LIMIT, `must be at least ${MIN_AGE_LIMIT}`)
    .max(MAX_AGE_LIMIT, `must be at most ${MAX_AGE_LIMIT}`)
    .nullable()
    .optional(),
  request_attributes: z
    .array(ZClaimName, { error: "must be an array of claim names" })
    .min(1, "must name at least one claim")
    .max(KNOWN_CLAIMS.length, `must name at most ${KNOWN_CLAIMS.length} claims`)
    .optional(),
  branding: z
    .strictObject(
      {
        useAppBranding: z.boolean({ error: "must be a boolean" }).optional(),
        name: str().trim().min(1, "must not be empty").max(MAX_NAME_LENGTH).nullable().optional(),
        logo: str().nullable().optional(),
      },
      { error: "must be an object" },
    )
    .optional(),
});
export type TUpdateVerificationSettings = z.infer<typeof ZUpdateVerificationSettings>;
