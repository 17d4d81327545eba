/**
 * Endpoint definitions of the Operator API's read views for the back-office (see
 * lib/http/endpoint.ts): workspaces overview, custom domains support, the operator audit trail
 * and a production-test request's page. All read-only, all `auth: "operator"`; every list takes
 * the shared pagination (`limit` 1–100, `offset` ≥ 0) and states its order.
 */
import { z } from "zod";
import { ZAuditEventJson } from "../audit/endpoints";
import { ZCustomDomainJson } from "../domains/endpoints";
import { CONFIGURED_STATUSES, DOMAIN_STATUSES } from "../domains/state-machine";
import { endpoint } from "../http/endpoint";
import { pageOf, paginationFields } from "../http/pagination";
import { ZOperatorItemJson, ZReportJson } from "../production-tests/serialize";
import { checkDateRange, dateRangeFields, idParam } from "../verifications/log/filters";

const iso = z.string().describe("ISO 8601 date-time");
const count = z.number().int();

/** A free-text search: trimmed, ≤ 200 characters; blank means no filter (a cleared search box). */
function searchParam(description: string) {
  return z
    .string({ error: "must be a string" })
    .trim()
    .max(200, "must be at most 200 characters")
    .optional()
    .transform((v) => (v ? v : undefined))
    .describe(description);
}

// ---------------------------------------------------------------------------------------------
// Workspaces overview

/** Days covered by the activity figures (sessions, webhook deliveries) of the overview. */
export const ACTIVITY_DAYS = 30;

export const ZListWorkspacesQuery = z.object({
  ...paginationFields(20),
  search: searchParam(
    "Case-insensitive part of the workspace name or of a member's email, or an exact workspace id",
  ),
});
export type TListWorkspacesQuery = z.infer<typeof ZListWorkspacesQuery>;

export const ZWorkspaceSummaryJson = z.object({
  workspaceId: z.string(),
  name: z.string(),
  createdAt: iso,
  memberCount: count,
  apps: z
    .object({ sandbox: count, production: count })
    .describe("Apps per environment (deleted apps not counted)"),
  sessionsLast30Days: count.describe(
    `Verification sessions created in the last ${ACTIVITY_DAYS} days, in the URL's environment`,
  ),
  webhooks: z
    .object({
      deliveries: count.describe(
        `Event deliveries created in the last ${ACTIVITY_DAYS} days, in the URL's environment (test deliveries not counted)`,
      ),
      dead: count.describe("Of those, deliveries that failed for good (no further attempt)"),
      failureRate: z
        .number()
        .nullable()
        .describe("dead / deliveries, 0–1 rounded to 4 places; null when there was no delivery"),
    })
    .describe(`Webhook deliveries of the workspace's apps in the last ${ACTIVITY_DAYS} days`),
});
export type TWorkspaceSummaryJson = z.infer<typeof ZWorkspaceSummaryJson>;

export const ZProviderActivationJson = z.object({
  providerId: z.string(),
  providerName: z.string(),
  status: z
    .string()
    .describe("not_activated, activation_requested, activation_processing, rejected or activated"),
  enabled: z.boolean(),
  activatedAt: iso.nullable(),
  currentTicketId: z.string().nullable().describe("act_…: the latest activation ticket, for its page"),
});

export const ZWorkspaceDetailJson = ZWorkspaceSummaryJson.extend({
  members: z.array(
    z.object({
      userId: z.string(),
      email: z.string(),
      name: z.string().nullable(),
      role: z.string().describe("owner, admin, developer or viewer"),
      joinedAt: iso,
    }),
  ),
  appsInEnvironment: z
    .array(
      z.object({
        clientId: z.string(),
        name: z.string(),
        createdAt: iso,
        customDomainStatus: z.enum(DOMAIN_STATUSES).describe("unconfigured when the app has none"),
        providers: z.array(ZProviderActivationJson),
      }),
    )
    .describe("The workspace's apps of the URL's environment (not deleted), newest first"),
});
export type TWorkspaceDetailJson = z.infer<typeof ZWorkspaceDetailJson>;

export const listWorkspacesForOperator = endpoint({
  method: "GET",
  path: "/v1/operator/workspaces",
  operationId: "listWorkspacesForOperator",
  summary: "List workspaces (Operator API)",
  description: `Every workspace, newest first, with its member count, its apps per environment, the sessions of the last ${ACTIVITY_DAYS} days and its webhook failure rate (dead deliveries over all event deliveries of the last ${ACTIVITY_DAYS} days) — activity figures for the URL's environment. \`search\`: part of the name or of a member's email (any case), or an exact workspace id. \`limit\` 1–100 (default 20), \`offset\` ≥ 0. Read-only.`,
  tag: "Operator",
  auth: "operator",
  query: ZListWorkspacesQuery,
  responses: { 200: { description: "A page of workspaces", schema: pageOf(ZWorkspaceSummaryJson) } },
});

export const getWorkspaceForOperator = endpoint({
  method: "GET",
  path: "/v1/operator/workspaces/{workspace_id}",
  operationId: "getWorkspaceForOperator",
  summary: "Get a workspace (Operator API)",
  description:
    "The workspace's overview figures, its members (email, role; oldest first) and its apps of the URL's environment (newest first, deleted apps left out) with each provider's activation status and latest ticket id. 404 for an unknown id. Read-only.",
  tag: "Operator",
  auth: "operator",
  responses: { 200: { description: "The workspace", schema: ZWorkspaceDetailJson } },
});

// ---------------------------------------------------------------------------------------------
// Custom domains support

export const ZListCustomDomainsQuery = z.object({
  ...paginationFields(20),
  status: z
    .enum(CONFIGURED_STATUSES, { error: `must be one of: ${CONFIGURED_STATUSES.join(", ")}` })
    .optional()
    .describe("Only domains in this state"),
  search: searchParam("Case-insensitive part of either host, or an exact clientId or workspace id"),
});
export type TListCustomDomainsQuery = z.infer<typeof ZListCustomDomainsQuery>;

const ZOperatorAppRef = z.object({ clientId: z.string(), name: z.string() });
const ZOperatorWorkspaceRef = z.object({ workspaceId: z.string(), name: z.string() });

export const ZOperatorCustomDomainJson = ZCustomDomainJson.extend({
  domainId: z.string().describe("dom_…"),
  webDomain: z.string(),
  oidcDomain: z.string(),
  createdAt: iso,
  activatedAt: iso.nullable().describe("When the domain last became active; null unless active"),
  app: ZOperatorAppRef,
  workspace: ZOperatorWorkspaceRef,
});
export type TOperatorCustomDomainJson = z.infer<typeof ZOperatorCustomDomainJson>;

export const listCustomDomainsForOperator = endpoint({
  method: "GET",
  path: "/v1/operator/custom-domains",
  operationId: "listCustomDomainsForOperator",
  summary: "List custom domains (Operator API)",
  description:
    "Every custom domain of the URL's environment (apps not deleted), newest first, in the shape of the Workspace API's custom domain (state, requiredAction, statusMessage, lastCheckedAt, per-record `dnsChecks`, automatic checks) plus its app and workspace. `status` (awaiting_dns, verifying, active, invalid) and `search` (part of either host, or an exact clientId or workspace id) filter. `limit` 1–100 (default 20), `offset` ≥ 0.",
  tag: "Operator",
  auth: "operator",
  query: ZListCustomDomainsQuery,
  responses: { 200: { description: "A page of custom domains", schema: pageOf(ZOperatorCustomDomainJson) } },
});

export const ZTlsCheckQuery = z.object({
  host: z
    .string({ error: "Required" })
    .trim()
    .min(1, "must not be empty")
    .max(300, "must be at most 300 characters")
    .describe(
      "The host a certificate is asked for, as the edge would send it (case, port, trailing dot do not count)",
    ),
});
export type TTlsCheckQuery = z.infer<typeof ZTlsCheckQuery>;

export const TLS_DECISION_CODES = [
  "active_custom_domain",
  "domain_not_active",
  "app_deleted",
  "unknown_host",
  "invalid_host",
] as const;

export const ZTlsCheckJson = z.object({
  host: z.string().describe("The host as asked"),
  normalizedHost: z.string().nullable().describe("The host as looked up; null when it is not a DNS name"),
  allowed: z
    .boolean()
    .describe("What GET /api/tls/allowed answers for this host (200 when true, 404 when false)"),
  code: z.enum(TLS_DECISION_CODES),
  reason: z
    .string()
    .describe('In words: "allowed: active custom domain of app …", "refused: domain awaiting DNS …"'),
  domain: z
    .object({
      domainId: z.string(),
      role: z.enum(["web", "oidc"]).describe("Which host of the domain this is"),
      webDomain: z.string(),
      oidcDomain: z.string(),
      status: z.enum(DOMAIN_STATUSES),
      requiredAction: z.string(),
      statusMessage: z.string().nullable(),
      lastCheckedAt: iso.nullable(),
      environment: z.enum(["sandbox", "production"]),
      app: ZOperatorAppRef.extend({ deleted: z.boolean() }),
      workspace: ZOperatorWorkspaceRef,
    })
    .nullable()
    .describe("The custom domain using this host, in either environment; null when none does"),
});
export type TTlsCheckJson = z.infer<typeof ZTlsCheckJson>;

export const checkTlsHostForOperator = endpoint({
  method: "GET",
  path: "/v1/operator/custom-domains/tls-check",
  operationId: "checkTlsHostForOperator",
  summary: "Explain the TLS allow-list answer for a host (Operator API)",
  description:
    "Whether the edge would be given a certificate for `host` (the answer of GET {PUBLIC_URL}/api/tls/allowed, computed by the same code) and why: `active_custom_domain` (allowed), `domain_not_active` (awaiting DNS, verifying or invalid), `app_deleted`, `unknown_host`, `invalid_host`. The edge serves both environments, so the answer is the same under both base URLs; `domain.environment` says where the domain lives. Always 200 for a given host; 400 naming `host` when it is missing.",
  tag: "Operator",
  auth: "operator",
  query: ZTlsCheckQuery,
  responses: { 200: { description: "The answer and its reason", schema: ZTlsCheckJson } },
});

// ---------------------------------------------------------------------------------------------
// Operator audit view

export const ZListOperatorAuditEventsQuery = z
  .object({
    ...paginationFields(50),
    operatorId: idParam().optional().describe("usr_… of one operator"),
    action: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .regex(
        /^[a-z0-9_.]*\*?$/i,
        "must be an action (activation.approved) or a prefix ending in * (activation.*)",
      )
      .optional()
      .describe("Exact action, or a prefix ending in `*` (`activation.*`)"),
    ...dateRangeFields,
  })
  .superRefine(checkDateRange);
export type TListOperatorAuditEventsQuery = z.infer<typeof ZListOperatorAuditEventsQuery>;

export const ZOperatorAuditEventJson = ZAuditEventJson.extend({
  workspaceId: z.string().nullable().describe("The workspace the action concerned; null when none"),
});
export type TOperatorAuditEventJson = z.infer<typeof ZOperatorAuditEventJson>;

export const listOperatorAuditEvents = endpoint({
  method: "GET",
  path: "/v1/operator/audit-events",
  operationId: "listOperatorAuditEvents",
  summary: "List operator actions (Operator API)",
  description:
    "Every audit entry whose actor is an operator, across all workspaces: entries of the URL's environment and deployment-wide ones (environment null), newest first. `actor.display` is the operator's email. Filters: `operatorId` (usr_…), `action` (exact, or a prefix ending in `*`), `from`/`to` (ISO date or date-time with a zone; `from` inclusive, `to` exclusive, a date-only `to` includes its day). `limit` 1–100 (default 50), `offset` ≥ 0.",
  tag: "Operator",
  auth: "operator",
  query: ZListOperatorAuditEventsQuery,
  responses: { 200: { description: "A page of operator actions", schema: pageOf(ZOperatorAuditEventJson) } },
});

// ---------------------------------------------------------------------------------------------
// Production test request page

export const ZProductionTestDetailQuery = z.object({
  ...paginationFields(50),
  claimed: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true"))
    .describe("true: only participations that claimed a stamp; false: only the others"),
});
export type TProductionTestDetailQuery = z.infer<typeof ZProductionTestDetailQuery>;

export const ZParticipationJson = z.object({
  id: z.string().describe("ptp_…"),
  verificationId: z.string().nullable(),
  providerId: z.string(),
  providerName: z.string(),
  successful: z.boolean(),
  claimed: z.boolean().describe("claimed a stamp"),
  createdAt: iso,
});
export type TParticipationJson = z.infer<typeof ZParticipationJson>;

const ZOperatorItemWithDetails = z.intersection(
  ZOperatorItemJson,
  z.object({
    workspace: ZOperatorWorkspaceRef,
    stats: ZReportJson.shape.stats
      .nullable()
      .describe("The challenge's report figures (participations, stamps per provider); null until scheduled"),
    participations: pageOf(ZParticipationJson).describe(
      "The challenge's participations, newest first, paginated by `limit`/`offset`; an empty page until scheduled",
    ),
  }),
);
export type TProductionTestDetailJson = z.infer<typeof ZOperatorItemWithDetails>;

export const getProductionTestForOperator = endpoint({
  method: "GET",
  path: "/v1/operator/production-tests/{request_id}",
  operationId: "getProductionTestForOperator",
  summary: "Get a production-test request (Operator API)",
  description:
    "A request of the URL's environment with its app and workspace, and once scheduled its challenge, the report figures (participations, claimed stamps per provider) and a page of its participations, newest first (`limit` 1–100, default 50, `offset` ≥ 0; `claimed=true|false` filters). A request has at most one challenge. Requests of deleted apps, of the other environment and unknown ids are 404.",
  tag: "Operator",
  auth: "operator",
  query: ZProductionTestDetailQuery,
  responses: { 200: { description: "The request and its challenge", schema: ZOperatorItemWithDetails } },
});
