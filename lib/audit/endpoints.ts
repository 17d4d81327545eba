/** Endpoint definitions of the audit log (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { pageOf, paginationFields } from "../http/pagination";
import { checkDateRange, dateRangeFields, idParam } from "../verifications/log/filters";

const iso = z.string().describe("ISO 8601 date-time");

export const ZListAuditEventsQuery = z
  .object({
    ...paginationFields(20),
    actorId: idParam().optional().describe("usr_…, key_…, app_…"),
    action: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .regex(/^[a-z0-9_.]*\*?$/i, "must be an action (app.created) or a prefix ending in * (app.*)")
      .optional()
      .describe("Exact action, or a prefix ending in `*` (`app.*`)"),
    targetType: idParam(64).optional(),
    targetId: idParam().optional(),
    ...dateRangeFields,
  })
  .superRefine(checkDateRange);
export type TListAuditEventsQuery = z.infer<typeof ZListAuditEventsQuery>;

export const AUDIT_ACTOR_TYPES = ["user", "api_key", "operator", "system", "cli"] as const;

export const ZAuditEventJson = z.object({
  auditId: z.string(),
  createdAt: iso,
  actor: z.object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    id: z.string().nullable(),
    display: z
      .string()
      .nullable()
      .describe("The user's email, the API key's or the app's name; null when unknown or a system action"),
  }),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  environment: z.enum(["sandbox", "production"]).nullable().describe("null: workspace-wide (team, name)"),
  requestId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type TAuditEventJson = z.infer<typeof ZAuditEventJson>;

export const listAuditEvents = endpoint({
  method: "GET",
  path: "/v1/audit-events",
  operationId: "listAuditEvents",
  summary: "List audit events",
  description:
    "Who did what in the workspace: entries of this environment and workspace-wide ones (environment null), newest first. Filters: `actorId`, `action` (exact, or a prefix ending in `*`, e.g. `app.*`), `targetType`, `targetId`, `from`/`to` (ISO date or date-time, `to` exclusive). `limit` 1–100 (default 20), `offset` ≥ 0.",
  tag: "Audit log",
  auth: "workspace",
  query: ZListAuditEventsQuery,
  responses: {
    200: {
      description: "A page of audit events",
      schema: pageOf(ZAuditEventJson),
    },
  },
});
