/**
 * Production tests as the API returns them (spec "Production test items"). A pending or failed
 * request is an item of type `request` with challenge null; once scheduled the same request is an
 * item of type `challenge` carrying both objects. `failureReason` on the request is our addition
 * (null unless failed), so an integrator learns why a request was refused.
 */
import { z } from "zod";
import { findProvider } from "../providers/catalog";
import {
  parseRequestStatus,
  REQUEST_STATUSES,
  ZProductionTestPayload,
  type TProductionTestPayload,
} from "./schema";
import { isChallengeActive } from "./state-machine";
import type { TChallengeRow, TRequestWithChallenge } from "./store/requests";

const iso = z.string().describe("ISO 8601 date-time");

export const ZChallengeJson = z.object({
  id: z.string().describe("chl_…; the id the report endpoint takes"),
  title: z.string(),
  description: z.string().nullable(),
  expiresAt: iso,
  createdAt: iso,
  completedAt: iso.nullable().describe("set when the last stamp was claimed; null while active"),
  isActive: z.boolean().describe("neither completed nor expired"),
  challengeMode: z.string().describe("stamp"),
  sponsor: z.unknown().nullable(),
  sources: z.array(z.unknown()).nullable(),
});
export type TChallengeJson = z.infer<typeof ZChallengeJson>;

export const ZRequestJson = z.object({
  id: z.string().describe("ptr_…"),
  clientId: z.string(),
  status: z.enum(REQUEST_STATUSES),
  payload: ZProductionTestPayload,
  challengeId: z.string().nullable().describe("set once scheduled"),
  failureReason: z.string().nullable().describe("the operator's reason, once failed (addition to the spec)"),
  createdAt: iso,
});
export type TRequestJson = z.infer<typeof ZRequestJson>;

const ZRequestItemJson = z.object({ type: z.literal("request"), challenge: z.null(), request: ZRequestJson });
const ZChallengeItemJson = z.object({
  type: z.literal("challenge"),
  challenge: ZChallengeJson,
  request: ZRequestJson,
});

export const ZProductionTestItemJson = z.discriminatedUnion("type", [ZRequestItemJson, ZChallengeItemJson]);
export type TProductionTestItemJson = z.infer<typeof ZProductionTestItemJson>;

/** Operators see which app and workspace an item belongs to. */
const ZOperatorAppJson = z.object({ clientId: z.string(), name: z.string(), workspaceId: z.string() });

export const ZOperatorItemJson = z.discriminatedUnion("type", [
  ZRequestItemJson.extend({ app: ZOperatorAppJson }),
  ZChallengeItemJson.extend({ app: ZOperatorAppJson }),
]);
export type TOperatorItemJson = z.infer<typeof ZOperatorItemJson>;

export const ZProviderBreakdownJson = z.object({
  providerId: z.string(),
  providerName: z.string(),
  claimCount: z.number().int(),
});
export type TProviderBreakdownJson = z.infer<typeof ZProviderBreakdownJson>;

export const ZReportJson = z.object({
  challenge: ZChallengeJson,
  stats: z.object({
    totalParticipations: z.number().int().describe("successful and unsuccessful attempts"),
    totalClaims: z.number().int().describe("successfully claimed stamps"),
    providerBreakdown: z.array(ZProviderBreakdownJson),
  }),
});
export type TReportJson = z.infer<typeof ZReportJson>;

export type RequestRow = TRequestWithChallenge;

/** A payload of an older shape: the fields it has that still fit, defaults for the others. */
const ZOlderPayload = z
  .object({
    title: z.string().catch(""),
    providerIds: z
      .array(z.unknown())
      .catch([])
      .transform((ids) => ids.filter((p) => typeof p === "string")),
    maxStampClaims: z.number().catch(0),
  })
  .catch({ title: "", providerIds: [], maxStampClaims: 0 });

/** The stored payload, read defensively: a row written by an older version still serializes. */
export function readPayload(row: { payload: unknown }): TProductionTestPayload {
  const parsed = ZProductionTestPayload.safeParse(row.payload);
  if (parsed.success) return parsed.data;
  return { ...ZOlderPayload.parse(row.payload), targetPlatform: null };
}

export function toChallengeJson(c: TChallengeRow, now: Date = new Date()): TChallengeJson {
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    expiresAt: c.expiresAt.toISOString(),
    createdAt: c.createdAt.toISOString(),
    completedAt: c.completedAt?.toISOString() ?? null,
    isActive: isChallengeActive(c, now),
    challengeMode: c.challengeMode,
    sponsor: c.sponsor ?? null,
    sources: Array.isArray(c.sources) ? c.sources : null,
  };
}

export function toRequestJson(r: RequestRow): TRequestJson {
  return {
    id: r.id,
    clientId: r.appId,
    status: parseRequestStatus(r.status),
    payload: readPayload(r),
    challengeId: r.challenge?.id ?? null,
    failureReason: r.failureReason,
    createdAt: r.createdAt.toISOString(),
  };
}

export function toItemJson(r: RequestRow, now: Date = new Date()): TProductionTestItemJson {
  const request = toRequestJson(r);
  return r.challenge
    ? { type: "challenge", challenge: toChallengeJson(r.challenge, now), request }
    : { type: "request", challenge: null, request };
}

export function toOperatorItemJson(
  r: RequestRow & { app: { id: string; name: string; workspaceId: string } },
  now: Date = new Date(),
): TOperatorItemJson {
  return {
    ...toItemJson(r, now),
    app: { clientId: r.app.id, name: r.app.name, workspaceId: r.app.workspaceId },
  };
}

/**
 * One entry per provider of the test, in the order the integrator gave them, with the claims
 * counted by the database; a provider with claims that is no longer in the list (it cannot
 * happen through recordParticipation) is still shown so the counts always add up.
 */
export function buildProviderBreakdown(
  providerIds: readonly string[],
  claimCounts: ReadonlyMap<string, number>,
): TProviderBreakdownJson[] {
  const ids = [...new Set([...providerIds, ...[...claimCounts.keys()].sort()])];
  return ids.map((providerId) => ({
    providerId,
    providerName: findProvider(providerId)?.name ?? providerId,
    claimCount: claimCounts.get(providerId) ?? 0,
  }));
}
