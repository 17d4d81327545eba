import { describe, expect, it } from "vitest";
import type { ProductionTestChallenge, ProductionTestRequest } from "../db/rows";
import {
  buildProviderBreakdown,
  readPayload,
  toItemJson,
  ZProductionTestItemJson,
  ZReportJson,
} from "./serialize";

const created = new Date("2030-01-01T00:00:00Z");
const request: ProductionTestRequest = {
  id: "ptr_1",
  appId: "app_1",
  workspaceId: "ws_1",
  status: "pending",
  payload: { title: "T", providerIds: ["passport"], maxStampClaims: 3, targetPlatform: null },
  failureReason: null,
  createdAt: created,
  updatedAt: created,
};
const challenge: ProductionTestChallenge = {
  id: "chl_1",
  requestId: "ptr_1",
  appId: "app_1",
  title: "T",
  description: null,
  challengeMode: "stamp",
  sponsor: { name: "Acme" },
  sources: ["web"],
  expiresAt: new Date("2030-01-15T00:00:00Z"),
  completedAt: null,
  createdAt: created,
};

describe("toItemJson", () => {
  it("is a request item while there is no challenge", () => {
    const item = toItemJson({ ...request, challenge: null }, created);
    expect(item).toEqual({
      type: "request",
      challenge: null,
      request: {
        id: "ptr_1",
        clientId: "app_1",
        status: "pending",
        payload: { title: "T", providerIds: ["passport"], maxStampClaims: 3, targetPlatform: null },
        challengeId: null,
        failureReason: null,
        createdAt: "2030-01-01T00:00:00.000Z",
      },
    });
    expect(ZProductionTestItemJson.safeParse(item).success).toBe(true);
  });

  it("is a challenge item once scheduled, with challengeId and isActive computed at `now`", () => {
    const row = { ...request, status: "scheduled", challenge };
    const active = toItemJson(row, created);
    expect(active.type).toBe("challenge");
    expect(active.request.challengeId).toBe("chl_1");
    expect(active.challenge).toMatchObject({ isActive: true, sponsor: { name: "Acme" }, sources: ["web"] });
    expect(toItemJson(row, new Date("2030-02-01T00:00:00Z")).challenge?.isActive).toBe(false);
    expect(ZProductionTestItemJson.safeParse(active).success).toBe(true);
  });
});

describe("readPayload", () => {
  it("reads a well-formed payload and survives a damaged one", () => {
    expect(readPayload(request)).toEqual(request.payload);
    expect(readPayload({ payload: { title: 5, providerIds: ["a", 3], maxStampClaims: "x" } })).toEqual({
      title: "",
      providerIds: ["a"],
      maxStampClaims: 0,
      targetPlatform: null,
    });
  });
});

describe("buildProviderBreakdown", () => {
  it("lists the test's providers in order with zero for unclaimed ones, then any stray provider", () => {
    const breakdown = buildProviderBreakdown(
      ["passport", "unknown-eid"],
      new Map([
        ["unknown-eid", 2],
        ["stray", 1],
      ]),
    );
    expect(breakdown).toEqual([
      { providerId: "passport", providerName: "Passport (NFC)", claimCount: 0 },
      { providerId: "unknown-eid", providerName: "unknown-eid", claimCount: 2 },
      { providerId: "stray", providerName: "stray", claimCount: 1 },
    ]);
    expect(
      ZReportJson.safeParse({
        challenge: toItemJson({ ...request, challenge }, created).challenge,
        stats: { totalParticipations: 4, totalClaims: 3, providerBreakdown: breakdown },
      }).success,
    ).toBe(true);
  });
});
