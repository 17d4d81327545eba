/** Endpoint definitions of the verification App API and the sandbox test helpers. */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { TEST_SCENARIOS } from "../providers/identities";
import { ZCreateVerification, ZIdentitiesQuery, ZSimulate } from "./schema";
import { VERIFICATION_STATES } from "./state-machine";

const iso = z.string().describe("ISO 8601 date-time");

export const ZVerificationCreatedJson = z.object({
  verificationId: z.string(),
  status: z.enum(VERIFICATION_STATES),
  providerId: z.string(),
  workflowId: z.string(),
  flowType: z.string(),
  url: z.string().optional().describe("The hosted page for the end-user; absent for API-channel flows"),
  createdAt: iso,
  expiresAt: iso,
});
export type TVerificationCreated = z.infer<typeof ZVerificationCreatedJson>;

export const ZVerificationStatusJson = z.object({
  verificationId: z.string(),
  status: z.enum(VERIFICATION_STATES),
  providerId: z.string(),
  workflowId: z.string(),
  flowType: z.string(),
  createdAt: iso,
  expiresAt: iso,
  verifiedAt: iso.optional(),
  acr: z.string().optional(),
  service_loa: z.number().int().optional(),
  service_loa_label: z.string().optional(),
  reason: z.string().optional().describe("Machine-readable reason of a failed, cancelled or expired session"),
});
export type TVerificationStatus = z.infer<typeof ZVerificationStatusJson>;

export const ZUserinfoJson = z.object({
  sub: z.string(),
  amr: z.array(z.string()),
  provider_id: z.string(),
  verification_model: z.enum(["disclosure", "match"]),
  service_loa: z.number().int(),
  service_loa_label: z.string(),
  acr: z.string(),
  missing_claims: z.array(z.string()),
  user: z.record(z.string(), z.unknown()),
  provenance: z.record(z.string(), z.unknown()),
  match: z.record(z.string(), z.unknown()).optional(),
});
export type TUserinfo = z.infer<typeof ZUserinfoJson>;

export const ZEvidenceJson = z.object({ token: z.record(z.string(), z.string()), names: z.string() });
export type TEvidence = z.infer<typeof ZEvidenceJson>;

export const createVerification = endpoint({
  method: "POST",
  path: "/v1/verifications",
  operationId: "createVerification",
  summary: "Start a verification",
  description:
    "Starts a session with a provider activated and enabled for the app, running `workflowId` or the app's default workflow. `redirect_uri` must be one of the app's redirectUris; `state` is echoed back on redirect; `matchData` (OIDC-normalized keys) is required by match providers and refused by the others. In production the provider must also be connected in this deployment (`available: true` in GET /v1/providers); otherwise `400 PROVIDER_NOT_AVAILABLE` and nothing is created. The sandbox runs every provider on the simulator.",
  tag: "Verifications",
  auth: "app",
  body: ZCreateVerification,
  // no transaction needed: createVerification reads in one statement and writes the session with
  // its events and deliveries in one statement, atomic by itself (store/creation.ts)
  transaction: false,
  responses: { 201: { description: "The new session", schema: ZVerificationCreatedJson } },
});

export const getVerification = endpoint({
  method: "GET",
  path: "/v1/verifications/{verification_id}",
  operationId: "getVerification",
  summary: "Get a verification's status",
  description: "The status record; no personal data.",
  tag: "Verifications",
  auth: "app",
  responses: { 200: { description: "Status record", schema: ZVerificationStatusJson } },
});

export const cancelVerification = endpoint({
  method: "DELETE",
  path: "/v1/verifications/{verification_id}",
  operationId: "cancelVerification",
  summary: "Cancel a verification and delete its personal data",
  description: "400 VERIFICATION_TERMINAL when the session already ended.",
  tag: "Verifications",
  auth: "app",
  responses: { 204: { description: "Cancelled" } },
  errors: [400],
});

export const getUserinfo = endpoint({
  method: "GET",
  path: "/v1/verifications/{verification_id}/userinfo",
  operationId: "getVerificationUserinfo",
  summary: "Claims and provenance of a completed verification",
  description:
    "409 VERIFICATION_NOT_COMPLETED before completion; 410 VERIFICATION_DATA_DELETED after the retention period.",
  tag: "Verifications",
  auth: "app",
  responses: { 200: { description: "Userinfo", schema: ZUserinfoJson } },
  errors: [409, 410],
});

export const getEvidence = endpoint({
  method: "GET",
  path: "/v1/verifications/{verification_id}/evidence",
  operationId: "getVerificationEvidence",
  summary: "Credential evidence of a completed verification",
  description: "`names` is the `;`-joined list of the keys of `token`.",
  tag: "Verifications",
  auth: "app",
  responses: { 200: { description: "Evidence", schema: ZEvidenceJson } },
  errors: [409, 410],
});

export const simulateVerification = endpoint({
  method: "POST",
  path: "/v1/sandbox/verifications/{verification_id}/simulate",
  operationId: "simulateVerification",
  summary: "Sandbox: drive a session to an outcome",
  description:
    "Sandbox only (404 in production). Authenticates as the test `identity` (default: the provider's first success identity) and applies `outcome` exactly as the simulator pages do: same events, same workflow run.",
  tag: "Sandbox",
  auth: "app",
  sandboxOnly: true,
  body: ZSimulate,
  // its own transaction on one connection, with prepared statements (sandbox.ts)
  transaction: false,
  responses: { 200: { description: "The status record after the outcome", schema: ZVerificationStatusJson } },
  errors: [400, 409],
});

export const ZTestIdentityJson = z.object({
  id: z.string(),
  scenario: z.enum(TEST_SCENARIOS),
  description: z.string(),
  loa: z.number().int(),
  claims: z.record(z.string(), z.unknown()),
});

export const listTestIdentities = endpoint({
  method: "GET",
  path: "/v1/sandbox/identities",
  operationId: "listTestIdentities",
  summary: "Sandbox: test identities of a provider",
  tag: "Sandbox",
  auth: "app",
  sandboxOnly: true,
  query: ZIdentitiesQuery,
  responses: {
    200: {
      description: "Test identities",
      schema: z.array(ZTestIdentityJson),
    },
  },
});

export const listAppTestIdentities = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/test-identities",
  operationId: "listAppTestIdentities",
  summary: "Sandbox: test identities of a provider (workspace)",
  description:
    "The test identities of GET /v1/sandbox/identities with a workspace credential (the console's test runs): sandbox only (404 ROUTE_NOT_FOUND in production), for an app of the workspace. `providerId` is required; an unknown provider is 400 naming it.",
  tag: "Sandbox",
  auth: "workspace",
  sandboxOnly: true,
  query: ZIdentitiesQuery,
  responses: { 200: { description: "Test identities", schema: z.array(ZTestIdentityJson) } },
});
