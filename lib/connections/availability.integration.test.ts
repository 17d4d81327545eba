/**
 * The honest catalog (issue 24 §2): in production a provider is offered only while it has a
 * working, enabled connection. Walks the whole catalog against a real OpenID Provider
 * (oidc-provider on loopback), connected through the Operator API: without a connection every
 * provider is refused at creation (400 PROVIDER_NOT_AVAILABLE, nothing written) and listed
 * `available: false`; with one, every provider's session is created and its sign-in completes.
 * Also: disabled and failing connections, the console listing, the OpenID Provider's picker, and
 * the sandbox (unchanged: every provider on the simulator).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { PROVIDERS, type TProviderDefinition } from "../providers/catalog";
import { opSettings, putTestConnection, testOperatorKey } from "../testing/connections";
import { authorizationPath } from "../testing/oidc-requests";
import { bearer, call } from "../testing/router";
import { startUpstreamOp, type TUpstreamOp } from "../testing/upstream-oidc";
import { makeVerifyingApp } from "../testing/verifications";
import { isolateWebhookTestDatabase } from "../testing/webhooks";
import {
  beginUpstreamAuthentication,
  completeUpstreamAuthentication,
  upstreamCallbackUrl,
} from "../verifications/upstream";

// the check reaches the loopback OP through the SSRF guard (as check.integration.test.ts)
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
// connections are environment-wide: this file connects and disconnects the whole production
// catalog, so it runs on a database of its own (other files connect providers concurrently)
isolateWebhookTestDatabase();

const REDIRECT = "https://rp.example.com/cb";
let op: TUpstreamOp;

beforeAll(async () => {
  op = await startUpstreamOp({
    redirectUri: upstreamCallbackUrl(),
    accounts: {
      "erika-4711": { claims: { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" } },
    },
  });
});

afterAll(async () => {
  await op.close();
});

/** A creation body the provider accepts (match providers compare submitted data). */
function body(p: TProviderDefinition): Record<string, unknown> {
  if (p.verificationModel !== "match") return { providerId: p.id };
  const field = p.claims.includes("family_name") ? "family_name" : p.claims[0]!;
  return { providerId: p.id, matchData: { [field]: "Mustermann" } };
}

type TListed = { id: string; available: boolean; unavailableReason: string | null };

async function listed(t: Awaited<ReturnType<typeof makeVerifyingApp>>, env: "sandbox" | "production") {
  const res = await call("GET", `/api/${env}/v1/providers`, { headers: t.creds });
  expect(res.status).toBe(200);
  return new Map((res.body as TListed[]).map((e) => [e.id, e]));
}

const sessionsOf = (appId: string) => getDb().verification.count({ where: { appId } });

/** DELETE the production connection of each provider (the walk connects them all). */
async function disconnect(...providerIds: string[]) {
  for (const id of providerIds) {
    const res = await call("DELETE", `/api/production/v1/operator/connections/${id}`, {
      headers: bearer(await testOperatorKey()),
    });
    expect(res.status).toBe(204);
  }
}

describe("the production catalog walked provider by provider", () => {
  it("refuses every provider without a connection, and runs every one once connected", async () => {
    const ids = PROVIDERS.map((p) => p.id);
    const t = await makeVerifyingApp(ids, "production", { connect: false });

    // not connected: listed unavailable, refused at creation, nothing written
    const before = await listed(t, "production");
    for (const p of PROVIDERS) {
      expect(before.get(p.id), p.id).toMatchObject({ available: false, unavailableReason: "not_connected" });
      const res = await t.start(body(p));
      expect(res.status, p.id).toBe(400);
      expect(res.body.error.code, p.id).toBe("PROVIDER_NOT_AVAILABLE");
      expect(res.body.error.message, p.id).toContain("is not connected in this deployment");
    }
    expect(await sessionsOf(t.app.clientId)).toBe(0);

    // connected through the Operator API: listed available, created, and the sign-in completes
    for (const p of PROVIDERS) {
      await putTestConnection("production", p.id, { adapter: "oidc", settings: opSettings(op) });
    }
    const after = await listed(t, "production");
    for (const p of PROVIDERS) {
      expect(after.get(p.id), p.id).toMatchObject({ available: true, unavailableReason: null });
      const created = await t.start(body(p));
      expect(created.status, `${p.id}: ${created.text}`).toBe(201);
      const id = created.body.verificationId as string;
      const { url } = await beginUpstreamAuthentication(id);
      const done = await completeUpstreamAuthentication(id, await op.signIn(url, "erika-4711"));
      expect(done.status, p.id).toBe("completed");
    }
    const info = await t.userinfo(
      (
        await getDb().verification.findFirstOrThrow({
          where: { appId: t.app.clientId, providerId: "de_eid" },
        })
      ).id,
    );
    expect(info.body).toMatchObject({
      provider_id: "de_eid",
      user: { given_name: "Erika", family_name: "Mustermann" },
    });
  });
});

describe("what counts as available", () => {
  it("a disabled or failing connection is not offered; a successful check brings it back", async () => {
    await disconnect("fr_franceconnect");
    const t = await makeVerifyingApp(["fr_franceconnect"], "production", { connect: false });
    const operator = bearer(await testOperatorKey());

    await putTestConnection("production", "fr_franceconnect", {
      adapter: "oidc",
      enabled: false,
      settings: opSettings(op),
    });
    expect((await listed(t, "production")).get("fr_franceconnect")).toMatchObject({
      available: false,
      unavailableReason: "disabled",
    });
    expect((await t.start({ providerId: "fr_franceconnect" })).body.error.code).toBe(
      "PROVIDER_NOT_AVAILABLE",
    );

    // enabled, but its check fails (nothing answers there): failing, not offered
    await putTestConnection("production", "fr_franceconnect", {
      adapter: "oidc",
      settings: opSettings(op, { issuer: "http://127.0.0.1:9/nothing-here" }),
    });
    expect((await t.start({ providerId: "fr_franceconnect" })).status).toBe(201);
    const failed = await call("POST", "/api/production/v1/operator/connections/fr_franceconnect/check", {
      headers: operator,
    });
    expect(failed.body.ok).toBe(false);
    expect((await listed(t, "production")).get("fr_franceconnect")).toMatchObject({
      available: false,
      unavailableReason: "failing",
    });
    const refused = await t.start({ providerId: "fr_franceconnect" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "PROVIDER_NOT_AVAILABLE" });
    expect(refused.body.error.message).toContain("failing");

    // the right issuer, checked: connected again
    await putTestConnection("production", "fr_franceconnect", { adapter: "oidc", settings: opSettings(op) });
    const ok = await call("POST", "/api/production/v1/operator/connections/fr_franceconnect/check", {
      headers: operator,
    });
    expect(ok.body.ok).toBe(true);
    expect((await listed(t, "production")).get("fr_franceconnect")).toMatchObject({ available: true });
    expect((await t.start({ providerId: "fr_franceconnect" })).status).toBe(201);
  });

  it("the sandbox is unchanged: every provider available on the simulator, no connection needed", async () => {
    const ids = PROVIDERS.map((p) => p.id);
    const t = await makeVerifyingApp(ids, "sandbox");
    const entries = await listed(t, "sandbox");
    for (const p of PROVIDERS) {
      expect(entries.get(p.id), p.id).toMatchObject({ available: true, unavailableReason: null });
      expect((await t.start(body(p))).status, p.id).toBe(201);
    }
  });

  it("the console's listing says which activated providers wait for a connection; activation works", async () => {
    await disconnect("de_eid", "it_spid", "es_dnie", "nl_digid");
    const t = await makeVerifyingApp(["de_eid", "it_spid"], "production", { connect: false });
    await putTestConnection("production", "de_eid", { adapter: "oidc", settings: opSettings(op) });
    const workspace = bearer(t.ws.keys.production);
    // a not-connected provider is activated as before (direct activation: at once)
    const activated = await call("POST", `/api/production/v1/apps/${t.app.clientId}/activation`, {
      headers: workspace,
      body: { providers: { es_dnie: {} } },
    });
    expect(activated.status, activated.text).toBeLessThan(300);
    const res = await call("GET", `/api/production/v1/apps/${t.app.clientId}/providers?include=activation`, {
      headers: workspace,
    });
    expect(res.status).toBe(200);
    const byId = new Map((res.body as (TListed & { isActive: boolean })[]).map((e) => [e.id, e] as const));
    expect(byId.get("de_eid")).toMatchObject({ isActive: true, available: true, unavailableReason: null });
    for (const id of ["it_spid", "es_dnie"]) {
      expect(byId.get(id), id).toMatchObject({
        isActive: true,
        available: false,
        unavailableReason: "not_connected",
      });
    }
    // not activated and not connected: listed as such
    expect(byId.get("nl_digid")).toMatchObject({ isActive: false, available: false });
    expect((await t.start({ providerId: "es_dnie" })).body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
  });
});

describe("the OpenID Provider in production", () => {
  it("the picker lists only connected providers, and a named unconnected one is refused", async () => {
    await disconnect("de_eid", "nl_digid");
    const t = await makeVerifyingApp(["de_eid", "nl_digid"], "production", { connect: false });
    await putTestConnection("production", "de_eid", { adapter: "oidc", settings: opSettings(op) });
    const patched = await call("PATCH", `/api/production/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.production),
      body: { redirectUris: [REDIRECT], pkceRequired: false },
    });
    expect(patched.status).toBe(200);
    const params = {
      client_id: t.app.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid",
    };
    const auth = (extra: Record<string, string> = {}) =>
      authorizationPath(params, extra).replace("/oidc/sandbox/", "/oidc/production/");

    const res = await call("GET", auth({ state: "s" }));
    expect(res.status).toBe(303);
    const select = res.headers.get("location")!;
    expect(select.startsWith("select?")).toBe(true);
    const page = await call("GET", `/oidc/production/${select}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-provider="de_eid"');
    expect(page.text).not.toContain('data-provider="nl_digid"');

    const named = await call("GET", auth({ state: "s", provider: "nl_digid" }));
    const location = named.headers.get("location");
    const error = location ? new URL(location).searchParams.get("error") : null;
    expect(error ?? named.text).toMatch(/invalid_request/);
    expect(await sessionsOf(t.app.clientId)).toBe(0);
  });
});
