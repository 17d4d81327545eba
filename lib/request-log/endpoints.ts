/** Endpoint definition of the API request log (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { pageOf, paginationFields } from "../http/pagination";
import { checkDateRange, dateRangeFields, idParam } from "../verifications/log/filters";
import { CREDENTIAL_TYPES } from "./credential-types";

const iso = z.string().describe("ISO 8601 date-time");

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
export const LOGGED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

export const ZListRequestLogsQuery = z
  .object({
    ...paginationFields(20),
    statusClass: z.enum(STATUS_CLASSES, { error: `must be one of: ${STATUS_CLASSES.join(", ")}` }).optional(),
    method: z
      .string()
      .transform((m) => m.trim().toUpperCase())
      .pipe(z.enum(LOGGED_METHODS, { error: `must be one of: ${LOGGED_METHODS.join(", ")}` }))
      .optional()
      .describe(`HTTP method, any case (${LOGGED_METHODS.join(", ")})`),
    path: z
      .string()
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      .optional()
      .describe("Part of the request path (case-sensitive)"),
    appId: idParam().optional().describe("clientId of one app"),
    credentialId: idParam()
      .optional()
      .describe("key_… (API key), app_… (App credentials), usr_… (console user)"),
    verificationId: idParam().optional(),
    ...dateRangeFields,
  })
  .superRefine(checkDateRange);
export type TListRequestLogsQuery = z.infer<typeof ZListRequestLogsQuery>;

export const ZRequestLogJson = z.object({
  requestId: z.string().describe("The X-Request-Id of the response"),
  environment: z.enum(["sandbox", "production"]),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  durationMs: z.number().int(),
  errorCode: z.string().nullable(),
  credentialType: z.enum(CREDENTIAL_TYPES),
  credentialId: z.string().nullable(),
  credentialName: z.string().nullable(),
  appId: z.string().nullable(),
  verificationId: z.string().nullable(),
  createdAt: iso,
});
export type TRequestLogJson = z.infer<typeof ZRequestLogJson>;

export const listRequestLogs = endpoint({
  method: "GET",
  path: "/v1/request-logs",
  operationId: "listRequestLogs",
  summary: "List API requests",
  description:
    "The workspace's REST requests in this environment (API keys, App credentials, console), newest first: method, path, status, duration, error code, credential, app and verification. Never bodies or personal data. Kept IDV_REQUEST_LOG_RETENTION_DAYS days (default 14); written within about a second of the response. Filters: `statusClass` (2xx, 3xx, 4xx, 5xx), `method`, `path` (substring), `appId`, `credentialId`, `verificationId`, `from`/`to` (ISO date or date-time, `to` exclusive). `limit` 1–100 (default 20), `offset` ≥ 0.",
  tag: "Request log",
  auth: "workspace",
  query: ZListRequestLogsQuery,
  responses: {
    200: {
      description: "A page of requests",
      schema: pageOf(ZRequestLogJson),
    },
  },
});
