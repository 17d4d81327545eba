/** Request and response shapes of the provider endpoints (response types are inferred from these). */
import { z } from "zod";
import { ACTIVATION_STATUSES } from "../activation/state-machine";
import { UNAVAILABLE_REASONS } from "../connections/schema";
import { FLOW_TYPES } from "./catalog";
import { REQUIREMENT_TYPES } from "./requirements";

const iso = z.string().describe("ISO 8601 date-time");

const ZRequirementValueJson = z.union([z.string(), z.boolean(), z.array(z.string())]);

/** An app's status of a provider in the App API listing (app-listing.ts, GET /v1/providers). */
export const APP_PROVIDER_STATUSES = ["activated", "deactivated", "action_required"] as const;
export type TAppProviderStatus = (typeof APP_PROVIDER_STATUSES)[number];

export const ZRequirementJson = z.object({
  id: z.string().describe("Requirement id, the key to submit; `supportContact` for contract providers"),
  type: z.enum(REQUIREMENT_TYPES),
  label: z.string(),
  description: z.string(),
  example: z.string().optional().describe("Placeholder sample; free-text inputs (text, email, url) only"),
  required: z.boolean().optional().describe("True for every input; omitted on info entries"),
  maxLength: z.number().int().optional(),
  pattern: z.string().optional().describe("Advisory regular expression for forms; never enforced"),
  options: z
    .array(z.object({ value: z.string(), description: z.string() }))
    .optional()
    .describe("select: pick one value; checkbox: submit an array of values"),
  value: z.string().optional().describe("info entries only: for contract providers, whom to contact"),
  currentValue: ZRequirementValueJson.nullable().describe("Remembered company information, for prefilling"),
  submittedValue: ZRequirementValueJson.nullable().describe("The value on the latest ticket; null if none"),
});
export type TRequirementJson = z.infer<typeof ZRequirementJson>;

export const ZActivationJson = z.object({
  status: z.enum(ACTIVATION_STATUSES).describe("Mirrors the provider's status"),
  id: z.string().optional().describe("Ticket id (act_…), once a ticket exists"),
  requirements: z.array(ZRequirementJson),
  requestedAt: iso.optional().describe("Latest submission; omitted when no ticket exists"),
  activatedAt: iso.optional().describe("Omitted until activated"),
  rejectedAt: iso.optional().describe("Most recent rejection; only while rejected"),
  rejectionReason: z.string().optional().describe("The reviewer's reason; only while rejected"),
});
export type TActivationJson = z.infer<typeof ZActivationJson>;

export const ZProviderJson = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  logoUrl: z.string().describe("Path below the service's public URL"),
  countries: z.array(z.string()).describe("ISO 3166-1 alpha-2 codes"),
  flowTypes: z.array(z.enum(FLOW_TYPES)),
  scopes: z.array(z.string()),
  loa: z.array(z.number().int()).describe("Levels of Assurance: 1 low, 2 substantial, 3 high"),
  defaultLoa: z.number().int().describe("Used when the upstream returns none; 0 = unspecified"),
  type: z
    .union([z.literal(1), z.literal(2), z.literal(3)])
    .describe("1 centralized IdP, 2 chip-based, 3 wallet"),
  verificationModel: z.enum(["disclosure", "match"]),
  matchGranularity: z.enum(["per_field", "aggregate"]).optional().describe("Match providers only"),
  activationKind: z
    .enum(["direct", "registration", "contract"])
    .describe("direct: activated at once; registration: reviewed by an operator; contract: off-API"),
  enabled: z
    .boolean()
    .describe("Whether the app uses the provider (only activated providers can be enabled)"),
  isActive: z.boolean().describe("True iff the status is activated"),
  needAction: z.boolean().describe("Activated, but the stored configuration fails the current requirements"),
  available: z
    .boolean()
    .describe(
      "Whether sessions can start in the app's environment: always in the sandbox; in production only while the provider has a working, enabled connection (operator-managed). Activation works either way.",
    ),
  unavailableReason: z
    .enum(UNAVAILABLE_REASONS)
    .nullable()
    .describe("Why `available` is false (`not_connected`, `disabled`, `failing`); null when available"),
  status: z.enum(ACTIVATION_STATUSES).optional().describe("With include=activation"),
  activation: ZActivationJson.optional().describe("With include=activation"),
});
export type TProviderJson = z.infer<typeof ZProviderJson>;

export const ZProviderWithActivationJson = ZProviderJson.required({ status: true, activation: true });

export const ZListAppProvidersQuery = z.object({
  include: z
    .string()
    .optional()
    .describe(
      "`activation` adds status and activation; may repeat or be comma-separated; unknown values are ignored",
    ),
  scope: z
    .enum(["app", "catalog"], { error: "must be one of: app, catalog" })
    .optional()
    .describe(
      "`app` (default): the spec's listing, where the sandbox omits providers never added to the app; `catalog`: every catalog provider with the app's status, in both environments",
    ),
});

export const ZUpdateAppProvider = z.strictObject({
  enabled: z.boolean({ error: "must be a boolean" }),
});
export type TUpdateAppProvider = z.infer<typeof ZUpdateAppProvider>;
