import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import {
  makeActiveCustomDomain,
  publishRecords,
  setupTestDns,
  uniqueDomain,
} from "@/lib/testing/custom-domains";
import { makeApp, makeOperator, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

const dns = setupTestDns();
const base = (env = "sandbox") => `/api/${env}/v1/operator/custom-domains`;

async function configure(key: string, env: "sandbox" | "production", clientId: string) {
  const names = uniqueDomain();
  const res = await call("PUT", `/api/${env}/v1/apps/${clientId}/custom-domain`, {
    headers: bearer(key),
    body: { webDomain: names.web, oidcDomain: names.oidc },
  });
  if (res.status !== 200) throw new Error(res.text);
  return { names, records: res.body.dnsRecords as { type: string; host: string; value: string }[] };
}

/** Domains in several states, workspaces and environments. */
async function setup() {
  const operator = await makeOperator();
  const a = await makeWorkspace("Domains A");
  const b = await makeWorkspace("Domains B");
  const activeApp = await makeApp(a.keys.sandbox, "sandbox", "Active shop");
  const active = await makeActiveCustomDomain(dns(), a.keys.sandbox, "sandbox", activeApp.clientId);
  const pendingApp = await makeApp(b.keys.sandbox, "sandbox", "Pending shop");
  const pending = await configure(b.keys.sandbox, "sandbox", pendingApp.clientId);
  const verifyingApp = await makeApp(b.keys.sandbox, "sandbox", "Half shop");
  const verifying = await configure(b.keys.sandbox, "sandbox", verifyingApp.clientId);
  publishRecords(dns(), verifying.records.slice(0, 1));
  await call("POST", `/api/sandbox/v1/apps/${verifyingApp.clientId}/custom-domain/verify`, {
    headers: bearer(b.keys.sandbox),
  });
  const prodApp = await makeApp(b.keys.production, "production", "Live shop");
  const prod = await makeActiveCustomDomain(dns(), b.keys.production, "production", prodApp.clientId);
  const goneApp = await makeApp(a.keys.sandbox, "sandbox", "Gone shop");
  const gone = await makeActiveCustomDomain(dns(), a.keys.sandbox, "sandbox", goneApp.clientId);
  // deleting an app through the API removes its domain; a row can still outlive its app (written
  // before that rule), so mark the app deleted directly
  await kysely()
    .updateTable("apps")
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where("id", "=", goneApp.clientId)
    .execute();
  return {
    headers: bearer(operator.operatorKey),
    a,
    b,
    activeApp,
    active,
    pendingApp,
    pending: pending.names,
    verifyingApp,
    verifying: verifying.names,
    prodApp,
    prod,
    goneApp,
    gone,
  };
}

describe("GET /v1/operator/custom-domains", () => {
  it("lists the environment's domains of every workspace with state, last check and per-record results", async () => {
    const s = await setup();
    const search = (q: string) =>
      call("GET", `${base()}?search=${encodeURIComponent(q)}&limit=100`, { headers: s.headers });

    const active = await search(s.activeApp.clientId);
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ total: 1, hasMore: false });
    expect(active.body.data[0]).toMatchObject({
      domainId: expect.stringMatching(/^dom_/),
      webDomain: s.active.web,
      oidcDomain: s.active.oidc,
      status: "active",
      requiredAction: "none",
      lastCheckedAt: expect.any(String),
      activatedAt: expect.any(String),
      automaticChecks: "off",
      app: { clientId: s.activeApp.clientId, name: "Active shop" },
      workspace: { workspaceId: s.a.workspaceId, name: "Domains A" },
    });
    expect(active.body.data[0].dnsChecks.map((c: { result: string }) => c.result)).toEqual([
      "found",
      "found",
      "found",
    ]);

    // by workspace: B's sandbox domains, newest first; not its production one
    const ofB = await search(s.b.workspaceId);
    expect(ofB.body.data.map((d: { webDomain: string }) => d.webDomain)).toEqual([
      s.verifying.web,
      s.pending.web,
    ]);
    expect(ofB.body.data[0]).toMatchObject({ status: "verifying", requiredAction: "waiting" });
    expect(ofB.body.data[0].dnsChecks.map((c: { result: string }) => c.result)).toContain("missing");
    expect(ofB.body.data[1]).toMatchObject({
      status: "awaiting_dns",
      requiredAction: "add_cname",
      automaticChecks: "scheduled",
      activatedAt: null,
    });
    expect(ofB.body.data[1].lastCheckedAt).toBeUndefined();
    expect(ofB.body.data[1].dnsChecks).toBeUndefined();

    // by host part, any case
    const byHost = await search(s.pending.base.toUpperCase());
    expect(byHost.body.data.map((d: { webDomain: string }) => d.webDomain)).toEqual([s.pending.web]);

    // the deleted app's domain is not listed
    expect((await search(s.goneApp.clientId)).body.total).toBe(0);

    // status filter
    const awaiting = await call("GET", `${base()}?status=awaiting_dns&search=${s.b.workspaceId}`, {
      headers: s.headers,
    });
    expect(awaiting.body.data.map((d: { webDomain: string }) => d.webDomain)).toEqual([s.pending.web]);
  });

  it("keeps environments apart", async () => {
    const s = await setup();
    const sandbox = await call("GET", `${base()}?search=${s.prod.base}`, { headers: s.headers });
    expect(sandbox.body.total).toBe(0);
    const production = await call("GET", `${base("production")}?search=${s.b.workspaceId}`, {
      headers: s.headers,
    });
    expect(production.body.data.map((d: { webDomain: string }) => d.webDomain)).toEqual([s.prod.web]);
    const noSandbox = await call("GET", `${base("production")}?search=${s.pending.web}`, {
      headers: s.headers,
    });
    expect(noSandbox.body.total).toBe(0);
  });

  it("paginates", async () => {
    const s = await setup();
    const url = `${base()}?search=${s.b.workspaceId}&limit=1`;
    const first = await call("GET", url, { headers: s.headers });
    expect(first.body).toMatchObject({ total: 2, limit: 1, offset: 0, hasMore: true });
    const second = await call("GET", `${url}&offset=1`, { headers: s.headers });
    expect(second.body).toMatchObject({ total: 2, limit: 1, offset: 1, hasMore: false });
    expect(second.body.data[0].webDomain).not.toBe(first.body.data[0].webDomain);
  });

  it("refuses bad filters naming the field", async () => {
    const operator = await makeOperator();
    for (const [qs, field] of [
      ["status=unconfigured", "status"],
      ["status=bogus", "status"],
      ["limit=500", "limit"],
      ["offset=x", "offset"],
    ] as const) {
      const res = await call("GET", `${base()}?${qs}`, { headers: bearer(operator.operatorKey) });
      expect(res.status, qs).toBe(400);
      expect(res.body.error.details[0].path, qs).toBe(field);
    }
  });
});

describe("GET /v1/operator/custom-domains/tls-check", () => {
  const check = (host: string | undefined, headers: Record<string, string>, env = "sandbox") =>
    call(
      "GET",
      host === undefined
        ? `${base(env)}/tls-check`
        : `${base(env)}/tls-check?host=${encodeURIComponent(host)}`,
      {
        headers,
      },
    );
  const ask = (domain: string) => call("GET", `/api/tls/allowed?domain=${encodeURIComponent(domain)}`);

  it("agrees with /api/tls/allowed and says why", async () => {
    const s = await setup();
    const cases: [string, boolean, string, RegExp][] = [
      [
        s.active.web,
        true,
        "active_custom_domain",
        /^allowed: active custom domain of app app_\w+ \("Active shop"\), web host, sandbox$/,
      ],
      [s.active.oidc.toUpperCase(), true, "active_custom_domain", /oidc host/],
      [`${s.prod.web}.`, true, "active_custom_domain", /production$/],
      [s.pending.web, false, "domain_not_active", /^refused: domain awaiting DNS/],
      [s.verifying.oidc, false, "domain_not_active", /^refused: domain verifying/],
      [s.gone.web, false, "app_deleted", /^refused: the app .* was deleted$/],
      [s.active.base, false, "unknown_host", /^refused: unknown host/],
      ["unknown.example.com", false, "unknown_host", /unknown host/],
      ["not a host", false, "invalid_host", /not a DNS host name/],
    ];
    for (const [host, allowed, code, reason] of cases) {
      const edge = await ask(host);
      expect(edge.body.allowed, host).toBe(allowed);
      expect(edge.status, host).toBe(allowed ? 200 : 404);
      // the same answer under both environments' base URLs
      for (const env of ["sandbox", "production"]) {
        const res = await check(host, s.headers, env);
        expect(res.status, host).toBe(200);
        expect(res.body, host).toMatchObject({ host, allowed, code });
        expect(res.body.reason, host).toMatch(reason);
      }
    }

    const detail = await check(s.pending.oidc, s.headers);
    expect(detail.body).toMatchObject({
      normalizedHost: s.pending.oidc,
      domain: {
        role: "oidc",
        webDomain: s.pending.web,
        status: "awaiting_dns",
        requiredAction: "add_cname",
        environment: "sandbox",
        app: { clientId: s.pendingApp.clientId, name: "Pending shop", deleted: false },
        workspace: { workspaceId: s.b.workspaceId, name: "Domains B" },
      },
    });
    expect((await check("unknown.example.com", s.headers)).body.domain).toBeNull();
  });

  it("follows a domain as it changes state, like the edge's check", async () => {
    const operator = await makeOperator();
    const headers = bearer(operator.operatorKey);
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const { names, records } = await configure(ws.keys.sandbox, "sandbox", app.clientId);
    expect((await check(names.web, headers)).body.allowed).toBe(false);
    publishRecords(dns(), records);
    await call("POST", `/api/sandbox/v1/apps/${app.clientId}/custom-domain/verify`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect((await check(names.web, headers)).body).toMatchObject({
      allowed: true,
      code: "active_custom_domain",
    });
    expect((await ask(names.web)).status).toBe(200);
    // a wrong value found later: invalid, refused by both
    dns().records.set(names.web, { CNAME: "elsewhere.example.net" });
    await call("POST", `/api/sandbox/v1/apps/${app.clientId}/custom-domain/verify`, {
      headers: bearer(ws.keys.sandbox),
    });
    const invalid = await check(names.web, headers);
    expect(invalid.body).toMatchObject({
      allowed: false,
      code: "domain_not_active",
      domain: { status: "invalid" },
    });
    expect(invalid.body.reason).toMatch(/^refused: domain invalid/);
    expect((await ask(names.web)).status).toBe(404);
    // app deleted through the API: its domain goes with it, unknown to both
    const other = await makeApp(ws.keys.sandbox);
    const otherNames = await makeActiveCustomDomain(dns(), ws.keys.sandbox, "sandbox", other.clientId);
    await call("DELETE", `/api/sandbox/v1/apps/${other.clientId}`, { headers: bearer(ws.keys.sandbox) });
    expect((await check(otherNames.oidc, headers)).body.code).toBe("unknown_host");
    expect((await ask(otherNames.oidc)).status).toBe(404);
    // deleted domain: unknown host to both
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}/custom-domain`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect((await check(names.web, headers)).body.code).toBe("unknown_host");
    expect((await ask(names.web)).status).toBe(404);
    expect(await countRows(kysely().selectFrom("customDomains").where("appId", "=", app.clientId))).toBe(0);
  });

  it("needs the host parameter", async () => {
    const operator = await makeOperator();
    for (const host of [undefined, "", "   ", "x".repeat(301)]) {
      const res = await check(host, bearer(operator.operatorKey));
      expect(res.status, String(host)).toBe(400);
      expect(res.body.error.details[0].path).toBe("host");
    }
  });
});

describe("operator custom-domain endpoints refuse everyone else", () => {
  it("401 without credentials, with a workspace key or a workspace member's session", async () => {
    const ws = await makeWorkspace();
    for (const url of [base(), `${base()}/tls-check?host=example.com`]) {
      expect((await call("GET", url)).status, url).toBe(401);
      for (const key of [ws.keys.sandbox, ws.keys.production]) {
        const res = await call("GET", url, { headers: bearer(key) });
        expect(res.status, url).toBe(401);
        expect(res.body.error.code).toBe("INVALID_OPERATOR_KEY");
      }
      const session = await call("GET", url, { headers: await sessionHeaders(ws.userId) });
      expect([401, 403], url).toContain(session.status);
    }
  });
});
