/**
 * Request bodies and queries of the production-test endpoints, and the stored request payload.
 * Unknown fields are rejected everywhere; every message names what the field must be.
 */
import { z } from "zod";
import { paginationFields } from "../http/pagination";
import { memberParser } from "../state-machine";

export const TITLE_MAX = 200;
export const MAX_PROVIDERS = 20;
export const MAX_STAMP_CLAIMS = 100_000;
export const DESCRIPTION_MAX = 2000;
export const FAILURE_REASON_MAX = 500;
export const MAX_SOURCES = 50;
/** a challenge runs 14 days unless the operator says otherwise, and at most a year */
export const DEFAULT_CHALLENGE_DAYS = 14;
export const MAX_CHALLENGE_DAYS = 365;

/** `any`: no preference; null (or omitted) means the same and is what the spec's examples show */
export const TARGET_PLATFORMS = ["web", "ios", "android", "any"] as const;
export type TTargetPlatform = (typeof TARGET_PLATFORMS)[number];

export const REQUEST_STATUSES = ["pending", "scheduled", "failed"] as const;
export type TRequestStatus = (typeof REQUEST_STATUSES)[number];
/** `production_test_requests.status` (only the state table writes it) as read from its row. */
export const parseRequestStatus = memberParser(REQUEST_STATUSES, "production_test_requests.status");

const ZTitle = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(TITLE_MAX, `must be at most ${TITLE_MAX} characters`);

const ZTargetPlatform = z
  .enum(TARGET_PLATFORMS, { error: `must be one of: ${TARGET_PLATFORMS.join(", ")} (or null)` })
  .nullable();

export const ZCreateProductionTest = z.strictObject({
  title: ZTitle,
  providerIds: z
    .array(z.string({ error: "must be a string" }).min(1, "must not be empty").max(100, "is too long"), {
      error: "must be an array of provider ids",
    })
    .min(1, "must contain at least 1 provider")
    .max(MAX_PROVIDERS, `must contain at most ${MAX_PROVIDERS} providers`),
  maxStampClaims: z
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(MAX_STAMP_CLAIMS, `must be at most ${MAX_STAMP_CLAIMS}`),
  targetPlatform: ZTargetPlatform.optional(),
});
export type TCreateProductionTest = z.infer<typeof ZCreateProductionTest>;

/** What a request asks for, as stored in ProductionTestRequest.payload and returned verbatim. */
export const ZProductionTestPayload = z.object({
  title: z.string(),
  providerIds: z.array(z.string()),
  maxStampClaims: z.number().int(),
  targetPlatform: z.enum(TARGET_PLATFORMS).nullable(),
});
export type TProductionTestPayload = z.infer<typeof ZProductionTestPayload>;

/**
 * Any JSON value (the challenge's `sponsor` and each of its `sources`). Recursive, so it is named:
 * the OpenAPI document carries it as the component `JsonValue` (lib/openapi/document.ts).
 * `register` names this very schema, which its own recursion refers to (`.meta` would name a copy).
 */
const ZJsonValue = z.json({ error: "must be a JSON value" }).register(z.globalRegistry, { id: "JsonValue" });

export const ZScheduleProductionTest = z
  .strictObject({
    expiresAt: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2030-01-31T12:00:00Z" })
      .optional(),
    description: z
      .string({ error: "must be a string" })
      .trim()
      .max(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters`)
      .nullable()
      .optional(),
    sponsor: ZJsonValue.nullable().optional(),
    sources: z
      .array(ZJsonValue, { error: "must be an array" })
      .max(MAX_SOURCES, `must contain at most ${MAX_SOURCES} entries`)
      .nullable()
      .optional(),
  })
  // the body is optional: scheduling with every default is the common case
  .optional();
export type TScheduleProductionTest = z.infer<typeof ZScheduleProductionTest>;

export const ZFailProductionTest = z.strictObject({
  reason: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .max(FAILURE_REASON_MAX, `must be at most ${FAILURE_REASON_MAX} characters`),
});
export type TFailProductionTest = z.infer<typeof ZFailProductionTest>;

export const ZOperatorListQuery = z.object({
  status: z
    .enum(REQUEST_STATUSES, { error: `must be one of: ${REQUEST_STATUSES.join(", ")}` })
    .default("pending"),
  clientId: z.string().min(1, "must not be empty").max(100, "is too long").optional(),
  ...paginationFields(50),
});
export type TOperatorListQuery = z.infer<typeof ZOperatorListQuery>;

/** POST …/production-tests/{challenge_id}/sessions: the body is optional (the provider has a default). */
export const ZStartChallengeSession = z
  .strictObject({
    providerId: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(64, "is too long")
      .optional(),
  })
  .optional();
export type TStartChallengeSession = z.infer<typeof ZStartChallengeSession>;
