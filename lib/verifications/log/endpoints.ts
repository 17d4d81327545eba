/**
 * Endpoint definitions of the workspace's view of verification sessions (the console's
 * Verifications pages): the list, one session's activity, revealing its claims, cancelling it,
 * and starting a sandbox test session without the client secret.
 */
import { z } from "zod";
import { endpoint } from "../../http/endpoint";
import { pageOf, paginationFields } from "../../http/pagination";
import { ZUserinfoJson, ZVerificationStatusJson } from "../endpoints";
import { isVerificationState, VERIFICATION_STATES } from "../state-machine";
import { checkDateRange, dateRangeFields, idParam } from "./filters";

const iso = z.string().describe("ISO 8601 date-time");

const STATUS_MESSAGE = `must be one or more (comma-separated) of: ${VERIFICATION_STATES.join(", ")}`;

/** `status=completed` or `status=failed,expired`. */
const ZStatusFilter = z
  .string()
  .transform((raw, ctx) => {
    const parts = raw
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const states = parts.filter(isVerificationState);
    if (parts.length === 0 || states.length < parts.length) {
      ctx.addIssue({ code: "custom", message: STATUS_MESSAGE, input: raw });
      return z.NEVER;
    }
    return [...new Set(states)];
  })
  .describe(`One status or several, comma-separated (${VERIFICATION_STATES.join(", ")})`);

export const ZListVerificationsQuery = z
  .object({
    ...paginationFields(20),
    status: ZStatusFilter.optional(),
    providerId: idParam(64).optional(),
    appId: idParam().optional().describe("clientId of one app"),
    ...dateRangeFields,
  })
  .superRefine(checkDateRange);
export type TListVerificationsQuery = z.infer<typeof ZListVerificationsQuery>;

export const ZVerificationListItemJson = z.object({
  verificationId: z.string(),
  clientId: z.string(),
  appName: z.string(),
  status: z.enum(VERIFICATION_STATES),
  statusReason: z
    .string()
    .nullable()
    .describe("Why a session failed, was cancelled or expired (e.g. authentication_failed)"),
  providerId: z.string(),
  flowType: z.string(),
  channel: z.enum(["oidc", "api"]),
  loa: z
    .number()
    .int()
    .nullable()
    .describe("0 unspecified, 1 low, 2 substantial, 3 high; once authenticated"),
  createdAt: iso,
  expiresAt: iso,
  verifiedAt: iso.nullable(),
  endedAt: iso.nullable().describe("When the session reached a terminal status"),
});

export const ZVerificationActivityJson = z.object({
  verification: ZVerificationListItemJson.extend({
    workflowId: z.string(),
    workflowVersion: z
      .number()
      .int()
      .nullable()
      .describe("The workflow version the session ran; null for sessions older than workflow versions"),
    redirectUri: z.string().nullable(),
    personalData: z.object({
      available: z.boolean().describe("true when the claims can be revealed (completed, not yet deleted)"),
      deletedAt: iso.nullable().describe("When cancel or the retention period deleted the personal data"),
    }),
  }),
  events: z
    .array(
      z.object({
        eventId: z.string(),
        type: z.string(),
        createdAt: iso,
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .describe("Oldest first"),
  deliveries: z
    .array(
      z.object({
        deliveryId: z.string(),
        eventId: z.string().nullable(),
        eventType: z.string(),
        status: z.enum(["pending", "succeeded", "dead"]),
        attemptCount: z.number().int(),
        lastStatus: z.number().int().nullable(),
        createdAt: iso,
        deliveredAt: iso.nullable(),
        nextAttemptAt: iso.nullable(),
      }),
    )
    .describe("Webhook deliveries of the session's events, oldest first"),
  requests: z
    .array(
      z.object({
        requestId: z.string(),
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        durationMs: z.number().int(),
        errorCode: z.string().nullable(),
        credentialType: z.enum(["api_key", "app", "session", "operator", "none"]),
        credentialName: z.string().nullable(),
        createdAt: iso,
      }),
    )
    .describe("API requests about the session (at most the 500 newest), oldest first"),
});

export type TVerificationListItemJson = z.infer<typeof ZVerificationListItemJson>;
export type TVerificationActivityJson = z.infer<typeof ZVerificationActivityJson>;

export const ZCreateTestVerification = z
  .strictObject({
    providerId: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(64)
      .optional()
      .describe("Default: the first enabled disclosure provider of the app's default workflow"),
    redirectUri: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(2048)
      .optional()
      .describe("One of the app's redirectUris"),
    workflowId: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(64)
      .optional()
      .describe("A workflow of the app (default: its default workflow), e.g. one being tried in the editor"),
  })
  .optional();

export const ZTestVerificationJson = ZVerificationStatusJson.extend({
  url: z.string().describe("The hosted page of the session (the sandbox simulator)"),
});

export const listVerifications = endpoint({
  method: "GET",
  path: "/v1/verifications",
  operationId: "listVerifications",
  summary: "List verification sessions",
  description:
    "The workspace's sessions in this environment, newest first, without personal data. Filters: `status` (one or comma-separated), `providerId`, `appId`, `from`/`to` (createdAt; ISO date or date-time, `to` exclusive, a date-only `to` includes its day). `limit` 1–100 (default 20), `offset` ≥ 0. Workspace credential (API key or console session); App credentials use the POST of this path.",
  tag: "Verifications",
  auth: "workspace",
  query: ZListVerificationsQuery,
  responses: {
    200: {
      description: "A page of sessions",
      schema: pageOf(ZVerificationListItemJson),
    },
  },
});

export const getVerificationActivity = endpoint({
  method: "GET",
  path: "/v1/verifications/{verification_id}/activity",
  operationId: "getVerificationActivity",
  summary: "A session's activity",
  description:
    "The status record with app, channel and personal-data state; its events and their webhook deliveries; and the API requests that named it. No personal data. A session of another workspace or environment is 404.",
  tag: "Verifications",
  auth: "workspace",
  responses: { 200: { description: "The session's activity", schema: ZVerificationActivityJson } },
});

export const revealVerificationUserinfo = endpoint({
  method: "POST",
  path: "/v1/verifications/{verification_id}/reveal",
  operationId: "revealVerificationUserinfo",
  summary: "Reveal a session's claims",
  description:
    "The userinfo object of a completed session (as GET /v1/verifications/{verification_id}/userinfo), for workspace credentials with permission `personal_data` (owner, admin, API keys). Every reveal is audited (`verification.personal_data_revealed`). 409 VERIFICATION_NOT_COMPLETED before completion; 410 VERIFICATION_DATA_DELETED after cancel or the retention period. Empty body.",
  tag: "Verifications",
  auth: "workspace",
  permission: "personal_data",
  responses: { 200: { description: "Userinfo", schema: ZUserinfoJson } },
  errors: [403, 409, 410],
});

export const cancelVerificationByWorkspace = endpoint({
  method: "POST",
  path: "/v1/verifications/{verification_id}/cancel",
  operationId: "cancelVerificationByWorkspace",
  summary: "Cancel a session (workspace)",
  description:
    "The cancel of DELETE /v1/verifications/{verification_id} with a workspace credential: same `verification.workflow.cancelled` event and webhook, personal data deleted, audited (`verification.cancelled`). 400 VERIFICATION_TERMINAL when the session already ended. Empty body.",
  tag: "Verifications",
  auth: "workspace",
  responses: { 200: { description: "The status record, now cancelled", schema: ZVerificationStatusJson } },
  errors: [400],
});

export const createTestVerification = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/test-verifications",
  operationId: "createTestVerification",
  summary: "Sandbox: start a test verification",
  description:
    "Sandbox only (404 ROUTE_NOT_FOUND in production). Starts a real session of the app exactly as POST /v1/verifications does (same checks, events and webhooks) with a workspace credential instead of the client secret, so the console can run one. `workflowId` picks one of the app's workflows (default: the default workflow); `providerId` defaults to the first enabled disclosure provider that workflow accepts; `redirectUri` must be one of the app's redirectUris. `url` is the session's hosted page. Audited (`verification.test_started`).",
  tag: "Sandbox",
  auth: "workspace",
  sandboxOnly: true,
  body: ZCreateTestVerification,
  responses: { 201: { description: "The new session", schema: ZTestVerificationJson } },
});
