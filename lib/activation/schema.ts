/** Request and response shapes of the activation and operator review endpoints. */
import { z } from "zod";
import { paginationFields } from "../http/pagination";
import { PROVIDERS } from "../providers/catalog";
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
  submitted: z
    .record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string())]))
    .describe("Requirement id → submitted value"),
  requestedAt: iso,
  reviewStartedAt: iso.nullable(),
  activatedAt: iso.nullable(),
  rejectedAt: iso.nullable(),
  rejectionReason: z.string().nullable(),
  reviewerUserId: z.string().nullable().describe("The operator who last moved the ticket"),
});
export type TTicketJson = z.infer<typeof ZTicketJson>;

export const ZListTicketsQuery = z.object({
  status: z
    .enum(TICKET_STATUSES, { error: `must be one of: ${TICKET_STATUSES.join(", ")}` })
    .default("activation_requested"),
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
