/**
 * The node-type catalog (GET /v1/apps/{client_id}/workflows/node-types): what each node does,
 * which outgoing links it has and which config fields it takes. The visual editor renders its
 * forms from this; validate.ts enforces the same fields through the schemas of schema.ts (a unit
 * test keeps the two in step).
 * Rules:
 * - `request` is the single entry point and `response` the terminal; neither takes config;
 * - `if` is the only branching node: it has `then`/`else` links instead of `next`;
 * - every field states its type, whether it is required and, for enums, its values.
 */
import { z } from "zod";
import { KNOWN_CLAIMS } from "./claims";
import {
  CHANNELS,
  CLAIM_CHECK_SOURCES,
  CONDITION_OPS,
  CONDITION_SOURCES,
  DEFAULT_REASON_CODE,
  EVALUATE_OPERATORS,
  MAX_AGE_LIMIT,
  MIN_AGE_LIMIT,
  VERIFICATION_MODES,
} from "./schema";

export const NODE_TYPES = [
  "request",
  "verification",
  "check-claim",
  "check-min-loa",
  "evaluate",
  "if",
  "response",
] as const;
export type TNodeType = (typeof NODE_TYPES)[number];

export function isNodeType(type: string): type is TNodeType {
  return (NODE_TYPES as readonly string[]).includes(type);
}

export const FIELD_TYPES = [
  "string",
  "integer",
  "boolean",
  "enum",
  "string[]",
  "object",
  "object[]",
  "any",
] as const;
export const NODE_OUTPUTS = ["next", "then", "else"] as const;
export type TNodeOutput = (typeof NODE_OUTPUTS)[number];

const ZNodeFieldLeafJson = z.object({
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  required: z.boolean(),
  description: z.string(),
  enumValues: z.array(z.string()).optional().describe("enum: allowed values; string[]: allowed item values"),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
});

export const ZNodeFieldJson = ZNodeFieldLeafJson.extend({
  fields: z.array(ZNodeFieldLeafJson).optional().describe("object and object[] fields: their own fields"),
});

export const ZNodeTypeJson = z.object({
  type: z.enum(NODE_TYPES),
  label: z.string(),
  description: z.string(),
  outputs: z.array(z.enum(NODE_OUTPUTS)).describe("Links of the node: next, then/else (if), none (response)"),
  fields: z.array(ZNodeFieldJson),
});
/** A field of a node's config; object and object[] fields list their own (one level deep). */
export type TNodeField = z.infer<typeof ZNodeFieldJson>;
export type TNodeTypeDefinition = z.infer<typeof ZNodeTypeJson>;

const claimNames = [...KNOWN_CLAIMS];

const CONDITION_FIELDS: TNodeField[] = [
  {
    name: "source",
    type: "enum",
    required: true,
    description:
      "What is tested: a claim of the verified user, the level of assurance (0–3) or the provider id",
    enumValues: [...CONDITION_SOURCES],
  },
  {
    name: "field",
    type: "enum",
    required: false,
    description: "The claim name; required when source is claim, refused otherwise",
    enumValues: claimNames,
  },
  {
    name: "op",
    type: "enum",
    required: true,
    description:
      "exists/not_exists (claim only, no value); equals/not_equals (one value); in/not_in (a non-empty array); " +
      "gte/lte (claim or loa, a number or, for claims, a string compared as text, e.g. a date); " +
      "age_gte/age_lt (claim birthdate only, an age in whole years)",
    enumValues: [...CONDITION_OPS],
  },
  {
    name: "value",
    type: "any",
    required: false,
    description:
      "The operand: a string, number or boolean for claims, an integer 0–3 for loa, a catalog provider id for provider; absent for exists/not_exists",
  },
];

export const NODE_TYPE_DEFINITIONS: readonly TNodeTypeDefinition[] = [
  {
    type: "request",
    label: "Request",
    description:
      "Workflow entry point: the verification request of the integrator. Every workflow has exactly one, and entryNodeId names it.",
    outputs: ["next"],
    fields: [],
  },
  {
    type: "verification",
    label: "Verification",
    description:
      "Identity verification step: the end-user verifies with one of the app's providers, which returns the requested claims. Every path from the request to a response passes exactly one verification node.",
    outputs: ["next"],
    fields: [
      {
        name: "channel",
        type: "enum",
        required: true,
        description:
          "How the integrator receives the result: oidc (OpenID Connect sign-in) or api (REST userinfo)",
        enumValues: [...CHANNELS],
      },
      {
        name: "claims",
        type: "string[]",
        required: true,
        description: "Claims to request from the provider (at least one, no duplicates)",
        enumValues: claimNames,
      },
      {
        name: "mode",
        type: "enum",
        required: false,
        description:
          "pii (default): the claims are disclosed to the integrator; age_verification: the result states whether the user is at least minimumAge years old",
        enumValues: [...VERIFICATION_MODES],
      },
      {
        name: "minimumAge",
        type: "integer",
        required: false,
        description:
          "Age threshold in whole years; required when mode is age_verification, refused otherwise",
        minimum: MIN_AGE_LIMIT,
        maximum: MAX_AGE_LIMIT,
      },
      {
        name: "branding",
        type: "object",
        required: false,
        description:
          "What the end-user sees on the hosted pages. useAppBranding true inherits the app's name and logo (set to true at workflow creation when not given); when false or unset the node's name and logo apply",
        fields: [
          { name: "name", type: "string", required: false, description: "Display name, 1–100 characters" },
          {
            name: "logo",
            type: "string",
            required: false,
            description: "data:image/(png|jpeg|gif|webp);base64 URL; empty string for none",
          },
          {
            name: "useAppBranding",
            type: "boolean",
            required: false,
            description: "true: the app's name and logo apply",
          },
        ],
      },
      {
        name: "providers",
        type: "object",
        required: false,
        description:
          'Per-provider overrides keyed by provider id, opt-out model: every enabled provider of the app may be used unless listed here with {"enabled": false}. Keys must be providers of the app',
        fields: [
          {
            name: "enabled",
            type: "boolean",
            required: true,
            description: "false opts the provider out of this step",
          },
        ],
      },
    ],
  },
  {
    type: "check-claim",
    label: "Check claim",
    description:
      "Checks that claims exist in the verification output; when one is missing the verification ends failed with reason missing_claim.",
    outputs: ["next"],
    fields: [
      {
        name: "claimChecks",
        type: "object[]",
        required: true,
        description: "The claims that must be present (1–50)",
        fields: [
          {
            name: "source",
            type: "enum",
            required: true,
            description: "Where the claim is looked up: user (the verified user's claims)",
            enumValues: [...CLAIM_CHECK_SOURCES],
          },
          {
            name: "field",
            type: "enum",
            required: true,
            description: "The claim name",
            enumValues: claimNames,
          },
        ],
      },
    ],
  },
  {
    type: "check-min-loa",
    label: "Check minimum LoA",
    description:
      "Checks the level of assurance of the verification; below minLoa the verification ends failed with reason loa_too_low.",
    outputs: ["next"],
    fields: [
      {
        name: "minLoa",
        type: "integer",
        required: true,
        description: "Lowest acceptable level: 1 low, 2 substantial, 3 high",
        minimum: 1,
        maximum: 3,
      },
    ],
  },
  {
    type: "evaluate",
    label: "Evaluate",
    description:
      "Tests conditions over the claims, the level of assurance and the provider; when they fail the verification ends failed with reasonCode.",
    outputs: ["next"],
    fields: [
      {
        name: "conditions",
        type: "object[]",
        required: true,
        description: "The conditions (1–50)",
        fields: CONDITION_FIELDS,
      },
      {
        name: "operator",
        type: "enum",
        required: false,
        description: "all (default): every condition must hold; any: at least one",
        enumValues: [...EVALUATE_OPERATORS],
      },
      {
        name: "reasonCode",
        type: "string",
        required: false,
        description: `Failure reason reported when the conditions fail: 1–64 of a–z, 0–9, _ (default ${DEFAULT_REASON_CODE})`,
      },
    ],
  },
  {
    type: "if",
    label: "If",
    description:
      "Branches on one condition: continues at the node named by `then` when it holds and by `else` when it does not. Has then/else instead of next.",
    outputs: ["then", "else"],
    fields: [
      {
        name: "condition",
        type: "object",
        required: true,
        description: "The condition to test",
        fields: CONDITION_FIELDS,
      },
    ],
  },
  {
    type: "response",
    label: "Response",
    description: "Terminal node: finalizes the result; the verification completes. Has no next.",
    outputs: [],
    fields: [],
  },
];

const byType = new Map<string, TNodeTypeDefinition>(NODE_TYPE_DEFINITIONS.map((d) => [d.type, d]));

export function findNodeType(type: string): TNodeTypeDefinition | undefined {
  return byType.get(type);
}
