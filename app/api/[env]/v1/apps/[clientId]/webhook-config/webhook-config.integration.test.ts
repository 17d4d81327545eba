import { describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/crypto/encryption";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { expectAppAccessRefused } from "@/lib/testing/app-access";
import { bearer, call } from "@/lib/testing/router";

async function setup(env: "sandbox" | "production" = "sandbox") {
  const ws = await makeWorkspace();
  const key = ws.keys[env];
  const app = await makeApp(key, env);
  const url = `/api/${env}/v1/apps/${app.clientId}/webhook-config`;
  return {
    ws,
    app,
    key,
    get: (headers: Record<string, string> = bearer(key)) => call("GET", url, { headers }),
    patch: (body: unknown, headers: Record<string, string> = bearer(key)) =>
      call("PATCH", url, { headers, body }),
    rotate: (headers: Record<string, string> = bearer(key)) =>
      call("POST", `${url}/rotate-secret`, { headers }),
  };
}

const row = (clientId: string) =>
  kysely().selectFrom("apps").selectAll().where("id", "=", clientId).executeTakeFirstOrThrow();
const auditOf = (clientId: string, action: string) =>
  kysely().selectFrom("auditEvents").where("targetId", "=", clientId).where("action", "=", action);

describe("GET /v1/apps/{client_id}/webhook-config", () => {
  it("returns the defaults of a new app, without a secret", async () => {
    const { get } = await setup();
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: null,
      enabled: false,
      retryAttempts: 3,
      timeoutSeconds: 10,
      events: [],
      signed: false,
      secretReadable: true,
    });
  });

  it("shows the secret to roles with the credentials permission, and only whether it is signed to viewers", async () => {
    const { ws, get, rotate, patch } = await setup();
    const { secret } = (await rotate()).body as { secret: string };
    const viewer = await addMember(ws.workspaceId, "viewer");
    const developer = await addMember(ws.workspaceId, "developer");
    const asViewer = await sessionHeaders(viewer.userId);
    const asDeveloper = await sessionHeaders(developer.userId);

    const seenByViewer = await get(asViewer);
    expect(seenByViewer.status).toBe(200);
    expect(seenByViewer.body).toMatchObject({ signed: true, secretReadable: false, url: null });
    expect(seenByViewer.body).not.toHaveProperty("secret");
    expect(seenByViewer.text).not.toContain(secret);
    // nor may a viewer change or rotate it
    expect((await patch({ enabled: false }, asViewer)).status).toBe(403);
    expect((await rotate(asViewer)).status).toBe(403);
    expect((await get()).body.secret).toBe(secret);

    // in the sandbox a developer holds credentials: reads and rotates it
    expect((await get(asDeveloper)).body).toMatchObject({ signed: true, secretReadable: true, secret });
    const rotatedByDeveloper = await rotate(asDeveloper);
    expect(rotatedByDeveloper.status).toBe(200);
    expect((await get(asDeveloper)).body.secret).toBe(rotatedByDeveloper.body.secret);
  });

  it("keeps the production secret from a developer, who still reads the rest and cannot rotate it", async () => {
    const { ws, app, get, rotate, patch } = await setup("production");
    await patch({ url: "https://receiver.example.test/hooks", events: ["verification.completed"] });
    const { secret } = (await rotate()).body as { secret: string };
    const developer = await addMember(ws.workspaceId, "developer");
    const admin = await addMember(ws.workspaceId, "admin");
    const asDeveloper = await sessionHeaders(developer.userId);
    const asAdmin = await sessionHeaders(admin.userId);

    const seen = await get(asDeveloper);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      url: "https://receiver.example.test/hooks",
      enabled: false,
      retryAttempts: 3,
      timeoutSeconds: 10,
      events: ["verification.completed"],
      signed: true,
      secretReadable: false,
    });
    expect(seen.text).not.toContain(secret);
    // a change of the settings is still theirs, and its answer carries no secret either
    const patched = await patch({ enabled: true }, asDeveloper);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ enabled: true, signed: true, secretReadable: false });
    expect(patched.text).not.toContain(secret);

    const before = await row(app.clientId);
    const refused = await rotate(asDeveloper);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "RESOURCE_FORBIDDEN",
      message: "Your role (developer) may not manage credentials in this environment (production)",
    });
    expect((await row(app.clientId)).webhookSecretEncrypted).toBe(before.webhookSecretEncrypted);

    // an admin's session (and the production key) read it and may rotate it
    expect((await get(asAdmin)).body).toMatchObject({ signed: true, secretReadable: true, secret });
    expect((await get()).body.secret).toBe(secret);
    const rotatedByAdmin = await rotate(asAdmin);
    expect(rotatedByAdmin.status).toBe(200);
    expect((await get(asAdmin)).body.secret).toBe(rotatedByAdmin.body.secret);
  });
});

describe("PATCH /v1/apps/{client_id}/webhook-config", () => {
  it("updates every field, keeps omitted ones and returns the configuration as GET does", async () => {
    const { app, patch, get, ws } = await setup();
    const res = await patch({
      url: "https://hooks.example.com/idv?token=abc",
      enabled: true,
      retryAttempts: 5,
      timeoutSeconds: 20,
      events: ["verification.completed", "verification.failed", "verification.completed"],
    });
    expect(res.status).toBe(200);
    const expected = {
      url: "https://hooks.example.com/idv?token=abc",
      enabled: true,
      retryAttempts: 5,
      timeoutSeconds: 20,
      events: ["verification.completed", "verification.failed"],
    };
    expect(res.body).toEqual({ ...expected, signed: false, secretReadable: true });
    expect((await get()).body).toEqual({ ...expected, signed: false, secretReadable: true });

    const partial = await patch({ timeoutSeconds: 1, retryAttempts: 0 });
    expect(partial.body).toEqual({
      ...expected,
      timeoutSeconds: 1,
      retryAttempts: 0,
      signed: false,
      secretReadable: true,
    });
    const empty = await patch({ events: [] });
    expect(empty.body.events).toEqual([]);
    // the same configuration shows on the app
    const appJson = await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(appJson.body.webhookConfig).toEqual({
      ...expected,
      timeoutSeconds: 1,
      retryAttempts: 0,
      events: [],
    });

    const audit = await auditOf(app.clientId, "webhook_config.updated")
      .selectAll()
      .orderBy("createdAt", "asc")
      .execute();
    expect(audit).toHaveLength(3);
    expect(audit[0]!.data).toEqual({
      fields: [
        "webhookUrl",
        "webhookEnabled",
        "webhookRetryAttempts",
        "webhookTimeoutSeconds",
        "webhookEvents",
      ],
    });
    // the URL (which may hold a token) is not copied into the audit trail
    expect(JSON.stringify(audit)).not.toContain("token=abc");
  });

  it("clears the url with null or an empty string; enabling needs a url", async () => {
    const { patch, app } = await setup();
    await patch({ url: "https://hooks.example.com/idv", enabled: true });
    const stillEnabled = await patch({ url: "" });
    expect(stillEnabled.status).toBe(400);
    expect(stillEnabled.body.error.details[0]).toEqual({
      path: "url",
      message: "is required while the webhook is enabled",
    });
    expect((await row(app.clientId)).webhookUrl).toBe("https://hooks.example.com/idv");

    const cleared = await patch({ url: "", enabled: false });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ url: null, enabled: false });
    await patch({ url: "https://hooks.example.com/again" });
    expect((await patch({ url: null })).body.url).toBeNull();

    const enable = await patch({ enabled: true });
    expect(enable.status).toBe(400);
    expect(enable.body.error.code).toBe("VALIDATION_ERROR");
    expect(enable.body.error.details[0].path).toBe("url");
    expect((await row(app.clientId)).webhookEnabled).toBe(false);
  });

  it("allows http URLs in the sandbox", async () => {
    const { patch } = await setup();
    const res = await patch({ url: "http://localhost:4000/hooks" });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe("http://localhost:4000/hooks");
  });

  it("requires https in production", async () => {
    const { patch, app } = await setup("production");
    const http = await patch({ url: "http://hooks.example.com/idv" });
    expect(http.status).toBe(400);
    expect(http.body.error.details[0]).toEqual({ path: "url", message: "must use https in production" });
    expect((await row(app.clientId)).webhookUrl).toBeNull();
    const https = await patch({ url: "https://hooks.example.com/idv", enabled: true });
    expect(https.status).toBe(200);
    expect(https.body).toMatchObject({ url: "https://hooks.example.com/idv", enabled: true });
  });

  it.each([
    [{ secret: "whsec_mine" }, "secret", "VALIDATION_INVALID_PARAMETER"],
    [{ secret: null }, "secret", "VALIDATION_INVALID_PARAMETER"],
    [{ url: "https://hooks.example.com", secret: "whsec_mine" }, "secret", "VALIDATION_INVALID_PARAMETER"],
    [{ color: "red" }, "color", "VALIDATION_ERROR"],
    [{ url: "ftp://hooks.example.com" }, "url", "VALIDATION_ERROR"],
    [{ url: "/relative" }, "url", "VALIDATION_ERROR"],
    [{ url: "https://user:pw@hooks.example.com" }, "url", "VALIDATION_ERROR"],
    [{ url: "https://hooks.example.com/#x" }, "url", "VALIDATION_ERROR"],
    [{ url: 42 }, "url", "VALIDATION_ERROR"],
    [{ url: `https://hooks.example.com/${"x".repeat(2048)}` }, "url", "VALIDATION_ERROR"],
    [{ enabled: "yes" }, "enabled", "VALIDATION_ERROR"],
    [{ retryAttempts: 11 }, "retryAttempts", "VALIDATION_ERROR"],
    [{ retryAttempts: -1 }, "retryAttempts", "VALIDATION_ERROR"],
    [{ retryAttempts: 1.5 }, "retryAttempts", "VALIDATION_ERROR"],
    [{ timeoutSeconds: 0 }, "timeoutSeconds", "VALIDATION_ERROR"],
    [{ timeoutSeconds: 31 }, "timeoutSeconds", "VALIDATION_ERROR"],
    [{ timeoutSeconds: "10" }, "timeoutSeconds", "VALIDATION_ERROR"],
    [{ events: ["verification.exploded"] }, "events[0]", "VALIDATION_ERROR"],
    [{ events: ["verification.created", 7] }, "events[1]", "VALIDATION_ERROR"],
    [{ events: "verification.created" }, "events", "VALIDATION_ERROR"],
  ])("refuses %j naming the field and changes nothing", async (body, path, code) => {
    const { patch, app } = await setup();
    const before = await row(app.clientId);
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details[0].path).toBe(path);
    const after = await row(app.clientId);
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(after.webhookSecretEncrypted).toBeNull();
    expect(await countRows(auditOf(app.clientId, "webhook_config.updated"))).toBe(0);
  });

  it("refuses a body that is not an object", async () => {
    const { patch } = await setup();
    const res = await patch(["url"]);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("(body)");
  });
});

describe("POST /v1/apps/{client_id}/webhook-config/rotate-secret", () => {
  it("creates the signing secret, stores it encrypted and shows it in the configuration", async () => {
    const { app, rotate, get, patch, ws } = await setup();
    const res = await rotate();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["secret"]);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);

    const stored = (await row(app.clientId)).webhookSecretEncrypted!;
    expect(stored).not.toContain(res.body.secret.slice(6));
    expect(decryptSecret(stored)).toBe(res.body.secret);

    expect((await get()).body).toMatchObject({ secret: res.body.secret, signed: true });
    expect((await patch({ retryAttempts: 2 })).body.secret).toBe(res.body.secret);
    // the app resource never shows it
    const appJson = await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(appJson.text).not.toContain(res.body.secret);

    const audit = await auditOf(app.clientId, "webhook_config.secret_rotated")
      .selectAll()
      .orderBy("createdAt", "asc")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toEqual({ firstSecret: true });
    expect(JSON.stringify(audit)).not.toContain(res.body.secret);
  });

  it("replays the same secret for the same Idempotency-Key and rotates again with a new key", async () => {
    const { app, rotate, get, key } = await setup();
    const first = await rotate({ ...bearer(key), "idempotency-key": "rotate-1" });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotency-replayed")).toBeNull();

    const replay = await rotate({ ...bearer(key), "idempotency-key": "rotate-1" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body.secret).toBe(first.body.secret);
    expect((await get()).body.secret).toBe(first.body.secret);

    const second = await rotate({ ...bearer(key), "idempotency-key": "rotate-2" });
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotency-replayed")).toBeNull();
    expect(second.body.secret).toMatch(/^whsec_/);
    expect(second.body.secret).not.toBe(first.body.secret);
    // the old secret is gone: only the newest one is stored
    expect((await get()).body.secret).toBe(second.body.secret);
    expect(decryptSecret((await row(app.clientId)).webhookSecretEncrypted!)).toBe(second.body.secret);

    const audit = await auditOf(app.clientId, "webhook_config.secret_rotated")
      .selectAll()
      .orderBy("createdAt", "asc")
      .execute();
    expect(audit.map((a) => a.data)).toEqual([{ firstSecret: true }, { firstSecret: false }]);
  });

  it("refuses a body and an over-long Idempotency-Key without rotating", async () => {
    const { app, key } = await setup();
    const url = `/api/sandbox/v1/apps/${app.clientId}/webhook-config/rotate-secret`;
    const withBody = await call("POST", url, { headers: bearer(key), body: { secret: "whsec_mine" } });
    expect(withBody.status).toBe(400);
    expect(withBody.body.error.details[0].path).toBe("(body)");
    const longKey = await call("POST", url, {
      headers: { ...bearer(key), "idempotency-key": "k".repeat(256) },
    });
    expect(longKey.status).toBe(400);
    expect((await row(app.clientId)).webhookSecretEncrypted).toBeNull();
  });
});

describe("webhook-config access", () => {
  const requests = [
    ["GET", "", undefined],
    ["PATCH", "", { enabled: false }],
    ["POST", "/rotate-secret", undefined],
  ] as const;

  it.each(requests)(
    "%s%s needs a workspace key of the app's workspace and environment",
    async (method, suffix, body) => {
      const { app, ws } = await setup();
      const other = await makeWorkspace();
      const path = `/api/sandbox/v1/apps/${app.clientId}/webhook-config${suffix}`;
      const before = await row(app.clientId);

      await expectAppAccessRefused({ method, path, body, app, ws, other });
      // a sandbox key on the production API is refused outright
      const wrongKey = await call(method, path.replace("/api/sandbox/", "/api/production/"), {
        headers: bearer(ws.keys.sandbox),
        body,
      });
      expect(wrongKey.status).toBe(401);

      const after = await row(app.clientId);
      expect(after.updatedAt).toEqual(before.updatedAt);
      expect(after.webhookSecretEncrypted).toBeNull();
    },
  );

  it("is 404 once the app is deleted", async () => {
    const { app, key, get, patch, rotate } = await setup();
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(key) });
    expect((await get()).status).toBe(404);
    expect((await patch({ enabled: false })).status).toBe(404);
    expect((await rotate()).status).toBe(404);
  });
});
