/** withApi's Idempotency-Key step: which requests have a key, what a claim is scoped by, how a replay answers. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { WorkspaceAuth } from "../../auth/workspace-keys";
import type { Db } from "../../db/client";
import { claimIdempotencyKey, hashRequestBody } from "../../idempotency";
import type { EndpointDef } from "../endpoint";
import { claimKey, idempotencyKeyOf, replayResponse } from "./idempotency";

vi.mock("../../idempotency", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../idempotency")>()),
  claimIdempotencyKey: vi.fn(),
}));

const keyed = (key: string) =>
  new Request("http://localhost/api/sandbox/v1/apps", {
    method: "POST",
    headers: { "Idempotency-Key": key },
  });

beforeEach(() => {
  vi.mocked(claimIdempotencyKey).mockReset();
});

describe("idempotencyKeyOf", () => {
  it("is the header on an idempotent workspace endpoint", () => {
    expect(idempotencyKeyOf({ idempotent: true, auth: "workspace" } as EndpointDef, keyed("k-1"))).toBe(
      "k-1",
    );
    expect(
      idempotencyKeyOf({ idempotent: true, auth: "workspace" } as EndpointDef, new Request("http://x/")),
    ).toBeUndefined();
  });

  it("ignores the header elsewhere, even a malformed one", () => {
    expect(idempotencyKeyOf({ auth: "workspace" } as EndpointDef, keyed(" "))).toBeUndefined();
    expect(idempotencyKeyOf({ idempotent: true, auth: "app" } as EndpointDef, keyed(" "))).toBeUndefined();
  });

  it("is 400 IDEMPOTENCY_KEY_INVALID for a malformed key where it counts", () => {
    expect(() =>
      idempotencyKeyOf({ idempotent: true, auth: "workspace" } as EndpointDef, keyed(" ")),
    ).toThrow(expect.objectContaining({ code: "IDEMPOTENCY_KEY_INVALID" }));
  });
});

describe("claimKey", () => {
  it("claims the key in the caller's workspace and environment, for this method, path and body", async () => {
    vi.mocked(claimIdempotencyKey).mockResolvedValue({ kind: "claimed", recordId: "idm_1" });
    const db = {} as Db;
    const auth = { workspaceId: "wsp_1" } as WorkspaceAuth;
    const url = new URL("http://localhost/api/sandbox/v1/apps?x=1");
    const raw = { text: '{"b":1,"a":2}', json: { b: 1, a: 2 } };
    expect(await claimKey(db, "k-1", auth, "sandbox", "POST", url, raw)).toEqual({
      kind: "claimed",
      recordId: "idm_1",
    });
    expect(claimIdempotencyKey).toHaveBeenCalledWith(db, {
      workspaceId: "wsp_1",
      environment: "sandbox",
      key: "k-1",
      method: "POST",
      path: "/api/sandbox/v1/apps",
      requestHash: hashRequestBody({ a: 2, b: 1 }),
    });
  });
});

describe("replayResponse", () => {
  it("answers the stored response again, marked as a replay", async () => {
    const res = replayResponse({
      status: 201,
      headers: { Location: "/v1/apps/app_1" },
      body: '{"id":"app_1"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("location")).toBe("/v1/apps/app_1");
    expect(res.headers.get("idempotency-replayed")).toBe("true");
    expect(await res.text()).toBe('{"id":"app_1"}');
  });

  it("answers a stored empty body without one, and without the JSON headers", async () => {
    const res = replayResponse({ status: 204, headers: {}, body: "" });
    expect(res.status).toBe(204);
    expect(res.headers.get("content-type")).toBeNull();
    expect(res.headers.get("cache-control")).toBeNull();
    expect(res.headers.get("idempotency-replayed")).toBe("true");
    expect(await res.text()).toBe("");
  });
});
