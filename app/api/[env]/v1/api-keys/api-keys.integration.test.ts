import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { addMember, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

function auditOf(workspaceId: string, action: string) {
  return kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("workspaceId", "=", workspaceId)
    .where("action", "=", action)
    .executeTakeFirstOrThrow();
}

function keyCount(workspaceId: string, name?: string): Promise<number> {
  let query = kysely().selectFrom("apiKeys").where("workspaceId", "=", workspaceId);
  if (name !== undefined) query = query.where("name", "=", name);
  return countRows(query);
}

describe("GET /v1/api-keys", () => {
  it("lists the keys of the URL's environment only, with their creator, never the secret", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const sandbox = await call("GET", "/api/sandbox/v1/api-keys", { headers });
    expect(sandbox.status).toBe(200);
    expect(sandbox.body).toMatchObject({ total: 1, limit: 100, offset: 0, hasMore: false });
    expect(sandbox.body.data).toEqual([
      {
        keyId: expect.stringMatching(/^key_/),
        name: "Default key",
        environment: "sandbox",
        prefix: ws.keys.sandbox.slice(0, "sk_workspace_test_".length + 4),
        createdAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: null,
        createdBy: { userId: ws.userId, email: ws.email },
      },
    ]);
    expect(sandbox.text).not.toContain(ws.keys.sandbox);

    const production = await call("GET", "/api/production/v1/api-keys", { headers });
    expect(production.body.data).toHaveLength(1);
    expect(production.body.data[0]).toMatchObject({
      environment: "production",
      prefix: expect.stringMatching(/^sk_workspace_prod_/),
    });
    expect(production.body.data[0].keyId).not.toBe(sandbox.body.data[0].keyId);

    // a production key lists production keys, and cannot be used on the sandbox path at all
    const byKey = await call("GET", "/api/production/v1/api-keys", { headers: bearer(ws.keys.production) });
    expect(byKey.body.data.map((k: { keyId: string }) => k.keyId)).toEqual([production.body.data[0].keyId]);
    expect(
      (await call("GET", "/api/sandbox/v1/api-keys", { headers: bearer(ws.keys.production) })).status,
    ).toBe(401);

    const other = await makeWorkspace();
    const foreign = await call("GET", "/api/sandbox/v1/api-keys", { headers: bearer(other.keys.sandbox) });
    expect(foreign.body.data.map((k: { keyId: string }) => k.keyId)).not.toContain(
      sandbox.body.data[0].keyId,
    );
  });
});

describe("POST /v1/api-keys", () => {
  it("creates a working key of the URL's environment, shown once, audited", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const res = await call("POST", "/api/production/v1/api-keys", {
      headers,
      body: { name: "  CI deploys " },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      keyId: expect.stringMatching(/^key_/),
      name: "CI deploys",
      environment: "production",
      prefix: res.body.key.slice(0, "sk_workspace_prod_".length + 4),
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      createdBy: { userId: ws.userId, email: ws.email },
      key: expect.stringMatching(/^sk_workspace_prod_[A-Za-z0-9]{40}$/),
    });
    const row = await kysely()
      .selectFrom("apiKeys")
      .selectAll()
      .where("id", "=", res.body.keyId)
      .executeTakeFirstOrThrow();
    expect(row.keyHash).toBe(sha256Hex(res.body.key));

    const works = await call("GET", "/api/production/v1/me", { headers: bearer(res.body.key) });
    expect(works.status).toBe(200);
    expect(works.body.actor).toEqual({ type: "api_key", id: res.body.keyId, name: "CI deploys" });
    expect((await call("GET", "/api/sandbox/v1/me", { headers: bearer(res.body.key) })).status).toBe(401);

    const list = await call("GET", "/api/production/v1/api-keys", { headers });
    expect(list.body.data.map((k: { keyId: string }) => k.keyId)[0]).toBe(res.body.keyId); // newest first
    expect(list.text).not.toContain(res.body.key);
    const audit = await auditOf(ws.workspaceId, "api_key.created");
    expect(audit).toMatchObject({
      actorType: "user",
      actorId: ws.userId,
      environment: "production",
      targetId: res.body.keyId,
      data: { name: "CI deploys" },
    });
    expect(JSON.stringify(audit)).not.toContain(res.body.key);
  });

  it("records no creator when an API key creates a key", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/api-keys", {
      headers: bearer(ws.keys.sandbox),
      body: { name: "Made by a key" },
    });
    expect(res.status).toBe(201);
    expect(res.body.createdBy).toBeNull();
    const audit = await auditOf(ws.workspaceId, "api_key.created");
    expect(audit.actorType).toBe("api_key");
  });

  it("needs credentials: developers only in sandbox, viewers never", async () => {
    const ws = await makeWorkspace();
    const dev = await sessionHeaders((await addMember(ws.workspaceId, "developer")).userId);
    const viewer = await sessionHeaders((await addMember(ws.workspaceId, "viewer")).userId);
    const admin = await sessionHeaders((await addMember(ws.workspaceId, "admin")).userId);
    const cases = [
      [dev, "sandbox", 201],
      [dev, "production", 403],
      [viewer, "sandbox", 403],
      [viewer, "production", 403],
      [admin, "production", 201],
    ] as const;
    for (const [headers, env, status] of cases) {
      const res = await call("POST", `/api/${env}/v1/api-keys`, { headers, body: { name: "k" } });
      expect(res.status).toBe(status);
      if (status === 403) {
        expect(res.body.error.code).toBe("RESOURCE_FORBIDDEN");
        expect(res.body.error.message).toContain(env);
      }
    }
    expect(await keyCount(ws.workspaceId, "k")).toBe(2);
  });

  it("validates the name", async () => {
    const ws = await makeWorkspace();
    for (const body of [
      { name: "" },
      { name: "   " },
      { name: "x".repeat(101) },
      {},
      { name: "ok", env: "production" },
    ]) {
      const res = await call("POST", "/api/sandbox/v1/api-keys", { headers: bearer(ws.keys.sandbox), body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect(await keyCount(ws.workspaceId)).toBe(2);
  });

  it("refuses cookie writes without a same-origin Origin (CSRF)", async () => {
    const ws = await makeWorkspace();
    for (const origin of [null, "https://evil.example"]) {
      const res = await call("POST", "/api/sandbox/v1/api-keys", {
        headers: await sessionHeaders(ws.userId, { origin }),
        body: { name: "Forged" },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    }
    expect(await keyCount(ws.workspaceId, "Forged")).toBe(0);
  });
});

describe("DELETE /v1/api-keys/{key_id}", () => {
  it("revokes at once: the key gets 401 on its next call; listed as revoked; audited once", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const created = await call("POST", "/api/sandbox/v1/api-keys", {
      headers,
      body: { name: "Short-lived" },
    });
    expect((await call("GET", "/api/sandbox/v1/apps", { headers: bearer(created.body.key) })).status).toBe(
      200,
    );

    const res = await call("DELETE", `/api/sandbox/v1/api-keys/${created.body.keyId}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: true });
    const after = await call("GET", "/api/sandbox/v1/apps", { headers: bearer(created.body.key) });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("INVALID_API_KEY");

    const list = await call("GET", "/api/sandbox/v1/api-keys", { headers });
    const listed = list.body.data.find((k: { keyId: string }) => k.keyId === created.body.keyId);
    expect(listed.revokedAt).toEqual(expect.any(String));
    // the other keys keep working
    expect((await call("GET", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox) })).status).toBe(
      200,
    );

    const again = await call("DELETE", `/api/sandbox/v1/api-keys/${created.body.keyId}`, { headers });
    expect(again.status).toBe(200);
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .where("action", "=", "api_key.revoked")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: ws.userId,
      targetId: created.body.keyId,
      environment: "sandbox",
    });
  });

  it("lets a key revoke itself", async () => {
    const ws = await makeWorkspace();
    const me = await call("GET", "/api/sandbox/v1/me", { headers: bearer(ws.keys.sandbox) });
    const res = await call("DELETE", `/api/sandbox/v1/api-keys/${me.body.actor.id}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(res.status).toBe(200);
    expect((await call("GET", "/api/sandbox/v1/me", { headers: bearer(ws.keys.sandbox) })).status).toBe(401);
  });

  it("answers 404 for keys of another workspace or environment, and leaves them working", async () => {
    const ws = await makeWorkspace();
    const other = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const ownProduction = (await call("GET", "/api/production/v1/api-keys", { headers })).body.data[0].keyId;
    const foreign = (await call("GET", "/api/sandbox/v1/api-keys", { headers: bearer(other.keys.sandbox) }))
      .body.data[0].keyId;
    for (const keyId of [ownProduction, foreign, "key_unknown"]) {
      const res = await call("DELETE", `/api/sandbox/v1/api-keys/${keyId}`, { headers });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
    }
    expect(
      (await call("GET", "/api/production/v1/apps", { headers: bearer(ws.keys.production) })).status,
    ).toBe(200);
    expect((await call("GET", "/api/sandbox/v1/apps", { headers: bearer(other.keys.sandbox) })).status).toBe(
      200,
    );
  });

  it("needs credentials: a developer may revoke sandbox keys only", async () => {
    const ws = await makeWorkspace();
    const dev = await sessionHeaders((await addMember(ws.workspaceId, "developer")).userId);
    const owner = await sessionHeaders(ws.userId);
    const prodKey = (await call("GET", "/api/production/v1/api-keys", { headers: owner })).body.data[0].keyId;
    const sandboxKey = (await call("GET", "/api/sandbox/v1/api-keys", { headers: owner })).body.data[0].keyId;
    const refused = await call("DELETE", `/api/production/v1/api-keys/${prodKey}`, { headers: dev });
    expect(refused.status).toBe(403);
    expect(
      (await call("GET", "/api/production/v1/apps", { headers: bearer(ws.keys.production) })).status,
    ).toBe(200);
    const allowed = await call("DELETE", `/api/sandbox/v1/api-keys/${sandboxKey}`, { headers: dev });
    expect(allowed.status).toBe(200);
  });
});
