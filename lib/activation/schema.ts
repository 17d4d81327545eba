/** Request and response shapes of the activation and operator review endpoints. */
import { z } from "zod";
import { paginationFields } from "../http/pagination";
import { findProvider, PROVIDERS } from "../providers/catalog";
import { ZRequirementValues } from "../providers/requirements";
import { ZRequirementJson } from "../providers/schema";
import { TICKET_STATUSES } from "./state-machine";

const iso = z.string().describe("ISO 8601 date-time");

export const ZSubmitActivation = z.strictObject({
  providers: z
    .record(
      z.string(),
      z.record(z.string(), z.unknown(), {
        error: "must be an object of requirement values ({} for direct providers)",
      }),
      { error: "must be an object keyed by provider id" },
    )
    .refine((p) => Object.keys(p).length > 0, "must name at least one provider")
    .refine(
      (p) => Object.keys(p).length <= PROVIDERS.length,
      `must name at most ${PROVIDERS.length} providers`,
    ),
  demo: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe("Sandbox only: registration and contract providers are activated about a second later"),
});
export type TSubmitActivation = z.infer<typeof ZSubmitActivation>;

export const ZTicketJson = z.object({
  id: z.string().describe("act_…"),
  status: z.enum(TICKET_STATUSES),
  clientId: z.string(),
  appName: z.string(),
  workspaceId: z.string(),
  environment: z.enum(["sandbox", "production"]),
  providerId: z.string(),
  providerName: z.string(),
  activationKind: z.enum(["direct", "registration", "contract"]),
  demo: z.boolean().describe("Submitted with demo: true (sandbox)"),
  submitted: ZRequirementValues.describe("Requirement id → submitted value"),
  requestedAt: iso,
  reviewStartedAt: iso.nullable(),
  activatedAt: iso.nullable(),
  rejectedAt: iso.nullable(),
  rejectionReason: z.string().nullable(),
  reviewerUserId: z.string().nullable().describe("The operator who last moved the ticket"),
});
export type TTicketJson = z.infer<typeof ZTicketJson>;

/** A queue entry: the ticket with its workspace's name. */
export const ZQueueTicketJson = ZTicketJson.extend({ workspaceName: z.string() });
export type TQueueTicketJson = z.infer<typeof ZQueueTicketJson>;

export const ZListTicketsQuery = z.object({
  status: z
    .enum(TICKET_STATUSES, { error: `must be one of: ${TICKET_STATUSES.join(", ")}` })
    .default("activation_requested"),
  providerId: z
    .string()
    .refine((id) => findProvider(id) !== undefined, "is not a provider of the catalog")
    .optional()
    .describe("Only tickets of this provider"),
  ...paginationFields(50),
});
export type TListTicketsQuery = z.infer<typeof ZListTicketsQuery>;

export const ZRejectTicket = z.strictObject({
  reason: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .max(500, "must be at most 500 characters"),
});

export const ZRecordContract = z.strictObject({
  clientId: z.string({ error: "must be a string" }).min(1, "must not be empty"),
  providerId: z.string({ error: "must be a string" }).min(1, "must not be empty"),
});

export const ZTicketDetailJson = z.object({
  ticket: ZQueueTicketJson,
  app: z.object({
    clientId: z.string(),
    name: z.string(),
    companyInfo: z
      .record(z.string(), z.unknown())
      .describe("Company information the app submitted (remembered from activation forms)"),
  }),
  requirements: z
    .array(ZRequirementJson)
    .describe(
      "The provider's current requirements; `submittedValue` is this ticket's value, `currentValue` the app's remembered company information",
    ),
  history: z
    .array(ZTicketJson)
    .describe("The other tickets of this app and provider, newest first (at most 50)"),
});
export type TTicketDetailJson = z.infer<typeof ZTicketDetailJson>;
