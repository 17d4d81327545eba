import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { hashRequestBody } from "@/lib/idempotency";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";

const post = (key: string, idem: string | undefined, body: unknown, path = "/api/sandbox/v1/apps") =>
  call("POST", path, {
    headers: { ...bearer(key), ...(idem === undefined ? {} : { "idempotency-key": idem }) },
    body,
  });

const countApps = (workspaceId: string) =>
  countRows(kysely().selectFrom("apps").where("workspaceId", "=", workspaceId));

describe("Idempotency-Key on POST /v1/apps", () => {
  it("replays the original response, secret included, without creating a second app", async () => {
    const ws = await makeWorkspace();
    const first = await post(ws.keys.sandbox, "create-1", { name: "Once" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    const again = await post(ws.keys.sandbox, "create-1", { name: "Once" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(await countApps(ws.workspaceId)).toBe(1);
  });

  it("treats a body with other whitespace or key order as the same request", async () => {
    const ws = await makeWorkspace();
    await post(ws.keys.sandbox, "k", { name: "Same" });
    const raw = await call("POST", "/api/sandbox/v1/apps", {
      headers: { ...bearer(ws.keys.sandbox), "idempotency-key": "k", "content-type": "application/json" },
      rawBody: '{ "name" :  "Same" }',
    });
    expect(raw.status).toBe(201);
    expect(raw.headers.get("idempotency-replayed")).toBe("true");
  });

  it("treats an empty body and {} as the same request, either way round", async () => {
    const ws = await makeWorkspace();
    const empty = await post(ws.keys.sandbox, "empty-first", undefined);
    expect(empty.status).toBe(201);
    const object = await post(ws.keys.sandbox, "empty-first", {});
    expect(object.status).toBe(201);
    expect(object.headers.get("idempotency-replayed")).toBe("true");
    expect(object.body.clientId).toBe(empty.body.clientId);
    const first = await post(ws.keys.sandbox, "object-first", {});
    const again = await call("POST", "/api/sandbox/v1/apps", {
      headers: {
        ...bearer(ws.keys.sandbox),
        "idempotency-key": "object-first",
        "content-type": "application/json",
      },
      rawBody: "",
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body.clientId).toBe(first.body.clientId);
    expect(await countApps(ws.workspaceId)).toBe(2);
  });

  it("answers 409 IDEMPOTENCY_KEY_CONFLICT for the same key with another body or path", async () => {
    const ws = await makeWorkspace();
    await post(ws.keys.sandbox, "k1", { name: "A" });
    const other = await post(ws.keys.sandbox, "k1", { name: "B" });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("IDEMPOTENCY_KEY_CONFLICT");
    const batch = await post(ws.keys.sandbox, "k1", { apps: [{ name: "A" }] }, "/api/sandbox/v1/apps/batch");
    expect(batch.status).toBe(409);
    expect(await countApps(ws.workspaceId)).toBe(1);
  });

  it("scopes keys per workspace and per environment", async () => {
    const a = await makeWorkspace();
    const b = await makeWorkspace();
    const first = await post(a.keys.sandbox, "shared", { name: "A" });
    const second = await post(b.keys.sandbox, "shared", { name: "A" });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotency-replayed")).toBeNull();
    expect(second.body.clientId).not.toBe(first.body.clientId);
    const prod = await post(a.keys.production, "shared", { name: "A" }, "/api/production/v1/apps");
    expect(prod.status).toBe(201);
    expect(prod.headers.get("idempotency-replayed")).toBeNull();
  });

  it("runs concurrent duplicates once: one creates, the others are told the key is in use or replayed", async () => {
    const ws = await makeWorkspace();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => post(ws.keys.sandbox, "race", { name: "Race" })),
    );
    const statuses = results.map((r) => r.status);
    const created = results.filter((r) => r.status === 201 && r.headers.get("idempotency-replayed") === null);
    expect(created).toHaveLength(1);
    for (const r of results) {
      if (r.status === 409) expect(r.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
      else if (r.status === 201 && r !== created[0]) expect(r.body.clientId).toBe(created[0]!.body.clientId);
      else expect(r).toBe(created[0]);
    }
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(await countApps(ws.workspaceId)).toBe(1);
    const replay = await post(ws.keys.sandbox, "race", { name: "Race" });
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
  });

  it("answers 409 IDEMPOTENCY_KEY_IN_USE while the first request with the key is still running", async () => {
    const ws = await makeWorkspace();
    const running = {
      workspaceId: ws.workspaceId,
      environment: "sandbox" as const,
      key: "busy",
      method: "POST",
      path: "/api/sandbox/v1/apps",
      requestHash: hashRequestBody({ name: "Busy" }),
      state: "in_progress",
      lockedUntil: new Date(Date.now() + 60_000),
      expiresAt: new Date(Date.now() + 3600_000),
    };
    await kysely()
      .insertInto("idempotencyRecords")
      .values({ id: randomUUID(), ...running })
      .execute();
    const res = await post(ws.keys.sandbox, "busy", { name: "Busy" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await countApps(ws.workspaceId)).toBe(0);
  });

  it("refuses keys over 255 characters and accepts exactly 255", async () => {
    const ws = await makeWorkspace();
    const long = await post(ws.keys.sandbox, "k".repeat(256), { name: "x" });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("IDEMPOTENCY_KEY_INVALID");
    expect(await countApps(ws.workspaceId)).toBe(0);
    expect((await post(ws.keys.sandbox, "k".repeat(255), { name: "x" })).status).toBe(201);
  });

  it("does not store failed requests: the key can be used again after a validation error", async () => {
    const ws = await makeWorkspace();
    const bad = await post(ws.keys.sandbox, "retry", { name: "" });
    expect(bad.status).toBe(400);
    const good = await post(ws.keys.sandbox, "retry", { name: "Fixed" });
    // a different body after a failure is a new attempt, not a conflict
    expect(good.status).toBe(201);
  });

  it("lets a new request take over a key whose first request crashed, and forgets keys after 24 h", async () => {
    const ws = await makeWorkspace();
    await post(ws.keys.sandbox, "stale", { name: "A" });
    await kysely()
      .updateTable("idempotencyRecords")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("workspaceId", "=", ws.workspaceId)
      .where("key", "=", "stale")
      .execute();
    const after = await post(ws.keys.sandbox, "stale", { name: "B" });
    expect(after.status).toBe(201);
    expect(after.headers.get("idempotency-replayed")).toBeNull();
    expect(after.body.name).toBe("B");

    await kysely()
      .insertInto("idempotencyRecords")
      .values({
        id: randomUUID(),
        workspaceId: ws.workspaceId,
        environment: "sandbox",
        key: "crashed",
        method: "POST",
        path: "/api/sandbox/v1/apps",
        requestHash: "x",
        state: "in_progress",
        lockedUntil: new Date(Date.now() - 1000),
        expiresAt: new Date(Date.now() + 3600_000),
      })
      .execute();
    const takeover = await post(ws.keys.sandbox, "crashed", { name: "C" });
    expect(takeover.status).toBe(201);
  });

  it("stores the replayable response encrypted, never the plain client secret", async () => {
    const ws = await makeWorkspace();
    const res = await post(ws.keys.sandbox, "secret-at-rest", { name: "S" });
    const row = await kysely()
      .selectFrom("idempotencyRecords")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .where("key", "=", "secret-at-rest")
      .executeTakeFirstOrThrow();
    expect(row.responseBody).not.toContain(res.body.clientSecret);
    expect(row.responseBody).toMatch(/^v1\./);
  });
});

describe("Idempotency-Key on rotate-client-secret", () => {
  it("replays the same rotated secret, which keeps working", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const url = `/api/sandbox/v1/apps/${app.clientId}/rotate-client-secret`;
    const headers = { ...bearer(ws.keys.sandbox), "idempotency-key": "rot-1" };
    const first = await call("POST", url, { headers });
    const again = await call("POST", url, { headers });
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body.clientSecret).toBe(first.body.clientSecret);
    // a bodyless endpoint: `{}` is the same request as no body
    const withObject = await call("POST", url, { headers, body: {} });
    expect(withObject.status).toBe(200);
    expect(withObject.headers.get("idempotency-replayed")).toBe("true");
    expect(withObject.body.clientSecret).toBe(first.body.clientSecret);
    expect(
      (
        await call("GET", "/api/sandbox/v1/providers", {
          headers: basic(app.clientId, first.body.clientSecret),
        })
      ).status,
    ).toBe(200);
  });
});
