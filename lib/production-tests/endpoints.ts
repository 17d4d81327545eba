/** Endpoint definitions of production tests: Workspace API and Operator API (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { pageOf } from "../http/pagination";
import { ZVerificationStatusJson } from "../verifications/endpoints";
import {
  DEFAULT_CHALLENGE_DAYS,
  MAX_CHALLENGE_DAYS,
  MAX_PROVIDERS,
  MAX_STAMP_CLAIMS,
  TARGET_PLATFORMS,
  ZCreateProductionTest,
  ZFailProductionTest,
  ZOperatorListQuery,
  ZScheduleProductionTest,
  ZStartChallengeSession,
} from "./schema";
import { ZOperatorItemJson, ZProductionTestItemJson, ZReportJson } from "./serialize";

export const createProductionTest = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/production-tests",
  operationId: "createProductionTest",
  summary: "Request a production test",
  description: `Asks the operators to run a live test of the app with real end-users, who verify with one of the given providers and claim a stamp. \`title\` 1–200 characters; \`providerIds\` 1–${MAX_PROVIDERS} catalog providers, each activated for the app (else 400 PROVIDER_NOT_AVAILABLE naming \`providerIds[i]\`); \`maxStampClaims\` 1–${MAX_STAMP_CLAIMS}; \`targetPlatform\` one of ${TARGET_PLATFORMS.join(", ")} or null (default null: no preference). The request starts \`pending\`; once an operator schedules it, it appears as a challenge. Allowed in both environments (sandbox to try it out). Honours \`Idempotency-Key\`.`,
  tag: "Production tests",
  auth: "workspace",
  body: ZCreateProductionTest,
  idempotent: true,
  responses: {
    201: {
      description: "The new request, as a production test item of type `request`",
      schema: ZProductionTestItemJson,
    },
  },
  errors: [409],
});

export const listProductionTests = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/production-tests",
  operationId: "listProductionTests",
  summary: "List production tests",
  description:
    "Every production test of the app, newest first. A pending or failed request is an item of type `request` (challenge null); a scheduled one is an item of type `challenge` whose request carries `challengeId`. `request.failureReason` (an addition to the spec) holds the operator's reason once failed.",
  tag: "Production tests",
  auth: "workspace",
  responses: { 200: { description: "Production test items", schema: z.array(ZProductionTestItemJson) } },
});

export const getProductionTestReport = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/production-tests/{challenge_id}/report",
  operationId: "getProductionTestReport",
  summary: "Get a production test report",
  description:
    "`challenge_id` is the id inside the challenge object (chl_…), not the request id: a request id, an unknown id or another app's challenge is 404. The report is a snapshot: `totalParticipations` counts successful and unsuccessful attempts, `totalClaims` the claimed stamps, `providerBreakdown` the claims per provider of the test. There is no completion flag; compare `totalClaims` with the request's `maxStampClaims` (or read `challenge.completedAt`).",
  tag: "Production tests",
  auth: "workspace",
  responses: { 200: { description: "The report", schema: ZReportJson } },
});

export const ZChallengeSessionJson = ZVerificationStatusJson.extend({
  url: z.string().describe("The session's hosted page: open it and verify as an end-user would"),
  challengeId: z.string().describe("The challenge the session takes part in"),
});

export const startChallengeSession = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/production-tests/{challenge_id}/sessions",
  operationId: "startChallengeSession",
  summary: "Start a session for a production-test challenge",
  description:
    "Starts a verification session of the app that takes part in the challenge, with a workspace credential instead of the client secret, so the integrator can go through the test as an end-user would (the console's \"Start challenge session\"). It is the same session POST /v1/verifications creates with `challengeId` (same checks, events and webhooks): when it ends it counts as a participation, and a completed one claims a stamp. Body optional: `providerId`, one of the test's providers (default: the first of them that discloses claims and is activated and enabled for the app); match providers need the App API (matchData). A completed or expired challenge is 400 naming `challenge_id`; a request id, an unknown id or another app's challenge is 404. Both environments: the sandbox runs the simulator, production the real provider. Audited (`production_test.session_started`).",
  tag: "Production tests",
  auth: "workspace",
  body: ZStartChallengeSession,
  responses: { 201: { description: "The new session", schema: ZChallengeSessionJson } },
});

export const listProductionTestsForOperator = endpoint({
  method: "GET",
  path: "/v1/operator/production-tests",
  operationId: "listProductionTestsForOperator",
  summary: "List production-test requests (Operator API)",
  description:
    "Requests of the URL's environment in one `status` (pending, scheduled or failed; default pending), of apps that are not deleted, optionally of one app (`clientId`). Pending requests oldest first (the review queue), the others newest first. Each item is a production test item plus `app` {clientId, name, workspaceId}. `limit` 1–100 (default 50), `offset` ≥ 0.",
  tag: "Operator",
  auth: "operator",
  query: ZOperatorListQuery,
  responses: { 200: { description: "A page of production test items", schema: pageOf(ZOperatorItemJson) } },
});

export const scheduleProductionTest = endpoint({
  method: "POST",
  path: "/v1/operator/production-tests/{request_id}/schedule",
  operationId: "scheduleProductionTest",
  summary: "Schedule a production test (Operator API)",
  description: `Moves a pending request to \`scheduled\` and creates its challenge (mode \`stamp\`, title from the request). Body optional: \`expiresAt\` ISO 8601 date-time in the future, at most ${MAX_CHALLENGE_DAYS} days ahead (default now + ${DEFAULT_CHALLENGE_DAYS} days); \`description\` (≤ 2000 characters); \`sponsor\` (any JSON value) and \`sources\` (array, ≤ 50 entries). A request that is not pending is refused with 400 and its current status in the message.`,
  tag: "Operator",
  auth: "operator",
  body: ZScheduleProductionTest,
  responses: {
    200: { description: "The scheduled item, of type `challenge`", schema: ZOperatorItemJson },
  },
});

export const failProductionTest = endpoint({
  method: "POST",
  path: "/v1/operator/production-tests/{request_id}/fail",
  operationId: "failProductionTest",
  summary: "Fail a production test request (Operator API)",
  description:
    "Moves a pending request to `failed`; `reason` (1–500 characters) is shown to the integrator as `request.failureReason`. A request that is not pending is refused with 400 and its current status in the message.",
  tag: "Operator",
  auth: "operator",
  body: ZFailProductionTest,
  responses: { 200: { description: "The failed item, of type `request`", schema: ZOperatorItemJson } },
});
