// The Operator API's connections (issue 24): list, read, put (create, change, rotate, keep the
// secret), delete, refusals naming the field with nothing stored, audit without the secret,
// environment isolation, and the SSRF guard of `check` (loopback refused in this file).
import { describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/crypto/encryption";
import { kysely } from "@/lib/db/client";
import { PROVIDERS } from "@/lib/providers/catalog";
import { makeOperator, makeWorkspace, operatorSessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";
import { isolateTestDatabase } from "@/lib/testing/webhooks";

// connections are environment-wide and other files connect production providers as they run
// (lib/testing/verifications.ts activateProviders): this file keeps its own database
isolateTestDatabase();

const base = (env = "sandbox") => `/api/${env}/v1/operator/connections`;
const SECRET = "s3cret-value-of-the-client-0001";
const ROTATED = "s3cret-value-of-the-client-0002";

function oidcSettings(overrides: Record<string, unknown> = {}) {
  return {
    issuer: "https://eid.example.test",
    clientId: "broker-client",
    clientSecret: SECRET,
    scopes: ["openid", "profile"],
    claimMapping: { prenom: "given_name" },
    acrToLoa: { eidas2: 2 },
    ...overrides,
  };
}

async function storedRow(env: "sandbox" | "production", providerId: string) {
  const row = await kysely()
    .selectFrom("providerConnections")
    .selectAll()
    .where("environment", "=", env)
    .where("providerId", "=", providerId)
    .executeTakeFirst();
  return row ?? null;
}

async function auditOf(connectionId: string) {
  return kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("targetType", "=", "provider_connection")
    .where("targetId", "=", connectionId)
    .orderBy("createdAt", "asc")
    .execute();
}

describe("Operator API: connections", () => {
  it("lists every catalog provider with its state, for operators only", async () => {
    const operator = await makeOperator();
    const res = await call("GET", base(), { headers: bearer(operator.operatorKey) });
    expect(res.status).toBe(200);
    expect(res.body.map((c: { providerId: string }) => c.providerId)).toEqual(PROVIDERS.map((p) => p.id));
    const passport = res.body.find((c: { providerId: string }) => c.providerId === "passport");
    expect(passport).toMatchObject({
      state: "not_connected",
      adapter: null,
      settings: null,
      productionAdapter: "chip",
    });

    expect((await call("GET", base())).status).toBe(401);
    const ws = await makeWorkspace();
    expect((await call("GET", base(), { headers: bearer(ws.keys.sandbox) })).status).toBe(401);
  });

  it("creates through an operator's session, never returns the secret, seals it and audits without it", async () => {
    const operator = await makeOperator();
    const headers = await operatorSessionHeaders(operator.userId);
    const res = await call("PUT", `${base()}/fr_franceconnect`, {
      headers,
      body: { adapter: "oidc", enabled: true, settings: oidcSettings() },
    });
    expect(res.status).toBe(201);
    expect(res.text).not.toContain(SECRET);
    expect(res.body).toMatchObject({
      providerId: "fr_franceconnect",
      state: "connected",
      adapter: "oidc",
      enabled: true,
      clientSecretSet: true,
      settings: {
        issuer: "https://eid.example.test",
        clientId: "broker-client",
        claimMapping: { prenom: "given_name" },
      },
    });
    expect(res.body.settings).not.toHaveProperty("clientSecret");

    const row = (await storedRow("sandbox", "fr_franceconnect"))!;
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.parse(decryptSecret(row.secretsEncrypted!))).toEqual({ clientSecret: SECRET });

    const read = await call("GET", `${base()}/fr_franceconnect`, { headers: bearer(operator.operatorKey) });
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(SECRET);
    expect(read.body.clientSecretSet).toBe(true);

    const [audit] = await auditOf(row.id);
    expect(audit).toMatchObject({
      actorType: "operator",
      actorId: operator.userId,
      action: "connection.created",
      environment: "sandbox",
    });
    expect((audit!.data as { changed: string[] }).changed).toEqual(
      expect.arrayContaining([
        "adapter",
        "enabled",
        "settings.issuer",
        "settings.clientId",
        "settings.clientSecret",
      ]),
    );
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it("keeps the secret on a PUT without it and rotates it on a PUT with a new one", async () => {
    const operator = await makeOperator();
    const headers = bearer(operator.operatorKey);
    const url = `${base()}/be_itsme`;
    expect(
      (
        await call("PUT", url, {
          headers,
          body: { adapter: "oidc", enabled: true, settings: oidcSettings() },
        })
      ).status,
    ).toBe(201);
    const first = (await storedRow("sandbox", "be_itsme"))!;

    const { clientSecret: _omitted, ...withoutSecret } = oidcSettings({ clientId: "renamed-client" });
    const kept = await call("PUT", url, {
      headers,
      body: { adapter: "oidc", enabled: true, settings: withoutSecret },
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ clientSecretSet: true, settings: { clientId: "renamed-client" } });
    const afterKeep = (await storedRow("sandbox", "be_itsme"))!;
    expect(JSON.parse(decryptSecret(afterKeep.secretsEncrypted!))).toEqual({ clientSecret: SECRET });

    const rotated = await call("PUT", url, {
      headers,
      body: { adapter: "oidc", enabled: false, settings: oidcSettings({ clientSecret: ROTATED }) },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain(ROTATED);
    expect(rotated.body).toMatchObject({ state: "disabled", enabled: false });
    const afterRotate = (await storedRow("sandbox", "be_itsme"))!;
    expect(JSON.parse(decryptSecret(afterRotate.secretsEncrypted!))).toEqual({ clientSecret: ROTATED });

    const audits = await auditOf(first.id);
    expect(audits.map((a) => a.action)).toEqual([
      "connection.created",
      "connection.updated",
      "connection.updated",
    ]);
    expect((audits[1]!.data as { changed: string[] }).changed).toEqual(["settings.clientId"]);
    expect((audits[2]!.data as { changed: string[] }).changed).toEqual([
      "enabled",
      "settings.clientId",
      "settings.clientSecret",
    ]);
    expect(JSON.stringify(audits)).not.toContain(SECRET);
    expect(JSON.stringify(audits)).not.toContain(ROTATED);
  });

  it("refuses a bad setting with 400 naming the field, and stores nothing", async () => {
    const operator = await makeOperator();
    const headers = bearer(operator.operatorKey);
    const url = `${base()}/es_clave`;
    const put = (body: unknown) => call("PUT", url, { headers, body });

    const insecure = await put({
      adapter: "oidc",
      enabled: true,
      settings: oidcSettings({ issuer: "http://eid.example.test" }),
    });
    expect(insecure.status).toBe(400);
    expect(insecure.body.error.details).toEqual([expect.objectContaining({ path: "settings.issuer" })]);

    const noSecret = await put({
      adapter: "oidc",
      enabled: true,
      settings: oidcSettings({ clientSecret: undefined }),
    });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error.details).toEqual([expect.objectContaining({ path: "settings.clientSecret" })]);

    const unknown = await put({ adapter: "oidc", enabled: true, settings: oidcSettings({ tokenUrl: "x" }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ path: "settings.tokenUrl" })]);

    const badMapping = await put({
      adapter: "oidc",
      enabled: true,
      settings: oidcSettings({ acrToLoa: { eidas2: 7 } }),
    });
    expect(badMapping.status).toBe(400);
    expect(badMapping.body.error.details[0].path).toBe("settings.acrToLoa.eidas2");

    const badAdapter = await put({ adapter: "vendor_api", enabled: true, settings: {} });
    expect(badAdapter.status).toBe(400);
    expect(badAdapter.body.error.details[0].path).toBe("adapter");

    const emptySaml = await put({ adapter: "saml", enabled: true, settings: {} });
    expect(emptySaml.status).toBe(400);
    expect(emptySaml.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "settings.spEntityId", message: "Required" })]),
    );

    const notWallet = await put({ adapter: "wallet", enabled: true, settings: { issuers: {}, vct: ["x"] } });
    expect(notWallet.status).toBe(400);
    expect(notWallet.body.error.details[0].path).toBe("adapter");

    expect(await storedRow("sandbox", "es_clave")).toBeNull();
    expect((await call("GET", url, { headers })).body.state).toBe("not_connected");

    // allowed for local testing, then a refused change leaves the stored connection as it was
    expect(
      (
        await put({
          adapter: "oidc",
          enabled: true,
          settings: oidcSettings({ issuer: "http://127.0.0.1:9", allowInsecureRequests: true }),
        })
      ).status,
    ).toBe(201);
    const before = (await storedRow("sandbox", "es_clave"))!;
    const refused = await put({
      adapter: "oidc",
      enabled: false,
      settings: oidcSettings({ clientSecret: ROTATED, scopes: [] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe("settings.scopes");
    expect(await storedRow("sandbox", "es_clave")).toEqual(before);
    expect(await auditOf(before.id)).toHaveLength(1);
  });

  it("is 404 for a provider outside the catalog", async () => {
    const operator = await makeOperator();
    const headers = bearer(operator.operatorKey);
    const url = `${base()}/nope_provider`;
    expect((await call("GET", url, { headers })).status).toBe(404);
    expect(
      (
        await call("PUT", url, {
          headers,
          body: { adapter: "oidc", enabled: true, settings: oidcSettings() },
        })
      ).status,
    ).toBe(404);
    expect((await call("DELETE", url, { headers })).status).toBe(404);
    expect((await call("POST", `${url}/check`, { headers })).status).toBe(404);
    // a catalog provider without a connection has nothing to check
    expect((await call("POST", `${base()}/it_cie/check`, { headers })).status).toBe(404);
  });

  it("keeps each environment's connections apart", async () => {
    const operator = await makeOperator();
    const headers = bearer(operator.operatorKey);
    const put = await call("PUT", `${base("sandbox")}/nl_digid`, {
      headers,
      body: { adapter: "oidc", enabled: true, settings: oidcSettings() },
    });
    expect(put.status).toBe(201);
    const production = await call("GET", `${base("production")}/nl_digid`, { headers });
    expect(production.body).toMatchObject({ state: "not_connected", connectionId: null });
    expect((await call("DELETE", `${base("production")}/nl_digid`, { headers })).status).toBe(204);
    expect((await call("GET", `${base("sandbox")}/nl_digid`, { headers })).body.state).toBe("connected");
    const list = await call("GET", base("production"), { headers });
    expect(list.body.find((c: { providerId: string }) => c.providerId === "nl_digid").state).toBe(
      "not_connected",
    );
  });

  it("disconnects with DELETE, audited", async () => {
    const operator = await makeOperator();
    const headers = await operatorSessionHeaders(operator.userId);
    const url = `${base()}/dk_mitid`;
    expect(
      (
        await call("PUT", url, {
          headers,
          body: { adapter: "oidc", enabled: true, settings: oidcSettings() },
        })
      ).status,
    ).toBe(201);
    const id = (await storedRow("sandbox", "dk_mitid"))!.id;
    const res = await call("DELETE", url, { headers });
    expect(res.status).toBe(204);
    expect(await storedRow("sandbox", "dk_mitid")).toBeNull();
    expect((await call("GET", url, { headers })).body.state).toBe("not_connected");
    const audits = await auditOf(id);
    expect(audits.map((a) => [a.action, a.actorId])).toEqual([
      ["connection.created", operator.userId],
      ["connection.deleted", operator.userId],
    ]);
  });

  it("check goes through the SSRF guard: a loopback issuer is refused and the connection shows failing", async () => {
    const operator = await makeOperator();
    const headers = bearer(operator.operatorKey);
    const url = `${base()}/ee_smart_id`;
    const settings = oidcSettings({ issuer: "http://127.0.0.1:9/issuer", allowInsecureRequests: true });
    expect(
      (await call("PUT", url, { headers, body: { adapter: "oidc", enabled: true, settings } })).status,
    ).toBe(201);
    const res = await call("POST", `${url}/check`, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, providerId: "ee_smart_id", keyCount: 0 });
    expect(res.body.error).toMatch(/refused/);
    const after = await call("GET", url, { headers });
    expect(after.body.state).toBe("failing");
    expect(after.body.lastError).toMatch(/refused/);
    expect(after.body.lastErrorAt).toEqual(expect.any(String));
  });
});
