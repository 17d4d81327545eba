import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import {
  makeActiveCustomDomain,
  publishRecords,
  TEST_CNAME_TARGET,
  uniqueDomain,
  setupTestDns,
} from "@/lib/testing/custom-domains";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { expectAppAccessRefused } from "@/lib/testing/app-access";
import { bearer, call } from "@/lib/testing/router";

const dns = setupTestDns();

async function setup(env: "sandbox" | "production" = "sandbox") {
  const ws = await makeWorkspace();
  const key = ws.keys[env];
  const app = await makeApp(key, env);
  const url = `/api/${env}/v1/apps/${app.clientId}/custom-domain`;
  const names = uniqueDomain();
  return {
    ws,
    app,
    key,
    names,
    get: () => call("GET", url, { headers: bearer(key) }),
    put: (body: unknown = { webDomain: names.web, oidcDomain: names.oidc }) =>
      call("PUT", url, { headers: bearer(key), body }),
    verify: () => call("POST", `${url}/verify`, { headers: bearer(key) }),
    remove: () => call("DELETE", url, { headers: bearer(key) }),
  };
}

const domainRows = (appId: string) =>
  kysely().selectFrom("customDomains").selectAll().where("appId", "=", appId).execute();
const countWithWebDomain = (webDomain: string) =>
  countRows(kysely().selectFrom("customDomains").where("webDomain", "=", webDomain));
const auditOf = (action: string, appId: string) =>
  kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("action", "=", action)
    .where(sql<string>`data ->> 'appId'`, "=", appId)
    .orderBy("createdAt", "asc")
    .execute();

describe("GET /v1/apps/{client_id}/custom-domain", () => {
  it("is unconfigured for an app without a custom domain", async () => {
    const { get } = await setup();
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      webDomain: null,
      oidcDomain: null,
      status: "unconfigured",
      requiredAction: "none",
      dnsRecords: [],
      automaticChecks: "off",
    });
  });
});

describe("PUT /v1/apps/{client_id}/custom-domain", () => {
  it("stores the normalised hosts and returns the DNS records to add, awaiting DNS", async () => {
    const { app, names, put, get } = await setup();
    const res = await put({ webDomain: ` ${names.web.toUpperCase()}. `, oidcDomain: names.oidc });
    expect(res.status).toBe(200);
    const records = res.body.dnsRecords;
    const token = records[2].value.replace("idv-verify=", "");
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body).toEqual({
      webDomain: names.web,
      oidcDomain: names.oidc,
      status: "awaiting_dns",
      requiredAction: "add_cname",
      dnsRecords: [
        {
          id: "web-cname",
          type: "CNAME",
          host: names.web,
          name: "verify",
          value: TEST_CNAME_TARGET,
          required: true,
          description: expect.stringContaining(names.web),
        },
        {
          id: "oidc-cname",
          type: "CNAME",
          host: names.oidc,
          name: "auth",
          value: TEST_CNAME_TARGET,
          required: true,
          description: expect.stringContaining(`https://${names.oidc}`),
        },
        {
          id: "ownership-txt",
          type: "TXT",
          host: names.txt,
          name: "_idv-challenge",
          value: `idv-verify=${token}`,
          required: true,
          description: expect.stringContaining(names.base),
        },
      ],
      // the service looks by itself a minute from now (lib/domains/recheck.ts)
      automaticChecks: "scheduled",
      nextCheckAt: expect.any(String),
      // a claim that is not active is deleted after 7 days (lib/domains/claims.ts)
      claimExpiresAt: expect.any(String),
    });
    const inAMinute = Date.parse(res.body.nextCheckAt) - Date.now();
    expect(inAMinute).toBeGreaterThan(50_000);
    expect(inAMinute).toBeLessThanOrEqual(60_000);
    expect((await get()).body).toEqual(res.body);
    const [row] = await domainRows(app.clientId);
    expect(row).toMatchObject({
      id: expect.stringMatching(/^dom_/),
      verificationToken: token,
      lastCheckedAt: null,
    });
    const audit = await auditOf("custom_domain.configured", app.clientId);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toMatchObject({ from: "unconfigured", to: "awaiting_dns", webDomain: names.web });
  });

  it("refuses a second domain, naming the current status, until the first is deleted", async () => {
    const { app, put, remove } = await setup();
    expect((await put()).status).toBe(200);
    const other = uniqueDomain();
    const again = await put({ webDomain: other.web, oidcDomain: other.oidc });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("CUSTOM_DOMAIN_EXISTS");
    expect(again.body.error.message).toMatch(
      /already has a custom domain .* with status awaiting_dns; delete it first/,
    );

    const rows = await domainRows(app.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.webDomain).not.toBe(other.web);

    expect((await remove()).status).toBe(200);
    const fresh = await put({ webDomain: other.web, oidcDomain: other.oidc });
    expect(fresh.status).toBe(200);
    expect(fresh.body.webDomain).toBe(other.web);
  });

  it("names the active status when an active domain is in place", async () => {
    const { app, key, put } = await setup();
    await makeActiveCustomDomain(dns(), key, "sandbox", app.clientId);
    const res = await put();
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("with status active");
  });

  it.each([
    [
      { webDomain: "https://verify.shop.example.com", oidcDomain: "auth.shop.example.com" },
      "webDomain",
      /scheme/,
    ],
    [
      { webDomain: "verify.shop.example.com", oidcDomain: "auth.shop.example.com/oidc" },
      "oidcDomain",
      /path/,
    ],
    [{ webDomain: "verify.shop.example.com:8443", oidcDomain: "auth.shop.example.com" }, "webDomain", /port/],
    [{ webDomain: "*.shop.example.com", oidcDomain: "auth.shop.example.com" }, "webDomain", /wildcard/],
    [{ webDomain: "203.0.113.5", oidcDomain: "auth.shop.example.com" }, "webDomain", /IP address/],
    [{ webDomain: "verify.shop.example.com", oidcDomain: "[2001:db8::1]" }, "oidcDomain", /IP address/],
    [
      { webDomain: "Verify.shop.example.com", oidcDomain: "verify.SHOP.example.com" },
      "oidcDomain",
      /must differ/,
    ],
    [
      { webDomain: "verify.shop.example.com", oidcDomain: "auth.shop.example.org" },
      "oidcDomain",
      /base domain/,
    ],
    [{ webDomain: "co.uk", oidcDomain: "auth.example.co.uk" }, "webDomain", /public suffix/],
    [
      { webDomain: "verify.example.co.uk", oidcDomain: "example.co.uk" },
      "oidcDomain",
      /base domain example\.co\.uk itself/,
    ],
    [
      { webDomain: "verify.shop.example.local", oidcDomain: "auth.shop.example.local" },
      "webDomain",
      /public domain suffix/,
    ],
    [{ webDomain: "verify_1.example.com", oidcDomain: "auth.example.com" }, "webDomain", /invalid label/],
    [{ webDomain: "", oidcDomain: "auth.example.com" }, "webDomain", /empty/],
    [
      { webDomain: `${TEST_CNAME_TARGET}`, oidcDomain: "auth.idv-broker.example.net" },
      "webDomain",
      /host of this service/,
    ],
    [{ oidcDomain: "auth.example.com" }, "webDomain", /Required/],
    [{ webDomain: "verify.example.com" }, "oidcDomain", /Required/],
    [{ webDomain: 42, oidcDomain: "auth.example.com" }, "webDomain", /string/],
    [
      { webDomain: "verify.example.com", oidcDomain: "auth.example.com", status: "active" },
      "status",
      /Unknown field/,
    ],
  ])("refuses %j naming the field, writing nothing", async (body, field, reason) => {
    const { app, put } = await setup();
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0].path).toBe(field);
    expect(res.body.error.details[0].message).toMatch(reason);
    expect(await domainRows(app.clientId)).toHaveLength(0);
    expect(await auditOf("custom_domain.configured", app.clientId)).toHaveLength(0);
  });

  it("refuses hosts another app's active domain uses, in either role, without saying whose", async () => {
    const first = await setup();
    first.names = await makeActiveCustomDomain(dns(), first.key, "sandbox", first.app.clientId);
    const second = await setup();
    const sameWeb = await second.put({ webDomain: first.names.web, oidcDomain: `login.${first.names.base}` });
    expect(sameWeb.status).toBe(400);
    expect(sameWeb.body.error.code).toBe("DOMAIN_IN_USE");
    expect(sameWeb.body.error.details[0]).toEqual({
      path: "webDomain",
      message: `${first.names.web} is already used by another app`,
    });
    expect(sameWeb.text).not.toContain(first.app.clientId);
    // another app's oidcDomain as this app's webDomain
    const crossed = await second.put({
      webDomain: first.names.oidc,
      oidcDomain: `login.${first.names.base}`,
    });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.details[0].path).toBe("webDomain");
    const sameOidc = await second.put({ webDomain: `www.${first.names.base}`, oidcDomain: first.names.oidc });
    expect(sameOidc.body.error.details[0].path).toBe("oidcDomain");
    expect(await domainRows(second.app.clientId)).toHaveLength(0);
  });

  it("releases the hosts of a deleted app", async () => {
    const first = await setup();
    expect((await first.put()).status).toBe(200);
    await call("DELETE", `/api/sandbox/v1/apps/${first.app.clientId}`, { headers: bearer(first.key) });
    // deleting the app removed its custom domain at once
    expect(await domainRows(first.app.clientId)).toHaveLength(0);
    const second = await setup();
    const res = await second.put({ webDomain: first.names.web, oidcDomain: first.names.oidc });
    expect(res.status).toBe(200);
  });

  it("accepts claims of the same hosts by several apps, concurrent ones too, while none is active", async () => {
    const names = uniqueDomain();
    const a = await setup();
    const b = await setup();
    const c = await setup();
    const body = { webDomain: names.web, oidcDomain: names.oidc };
    const results = await Promise.all([a.put(body), b.put(body)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect((await c.put({ webDomain: names.oidc, oidcDomain: names.web })).status).toBe(200);
    expect(await countWithWebDomain(names.web)).toBe(2);
    // (lib/domains/claims.integration.test.ts: the first to prove ownership wins)
  });
});

describe("POST /v1/apps/{client_id}/custom-domain/verify", () => {
  it("walks awaiting_dns → verifying → invalid → active as the records appear, setting lastCheckedAt", async () => {
    const { app, names, put, verify, get } = await setup();
    const configured = await put();
    const [webCname, oidcCname, txt] = configured.body.dnsRecords;
    expect(configured.body.lastCheckedAt).toBeUndefined();

    // nothing published yet
    const none = await verify();
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ status: "awaiting_dns", requiredAction: "add_cname" });
    expect(none.body.statusMessage).toMatch(/^No DNS records found yet/);
    expect(none.body.statusMessage).toContain(`CNAME ${names.web} → ${TEST_CNAME_TARGET}`);
    expect(none.body.dnsChecks).toEqual([
      {
        id: "web-cname",
        type: "CNAME",
        host: names.web,
        result: "missing",
        found: [],
        message: `no CNAME record on ${names.web}`,
      },
      {
        id: "oidc-cname",
        type: "CNAME",
        host: names.oidc,
        result: "missing",
        found: [],
        message: `no CNAME record on ${names.oidc}`,
      },
      {
        id: "ownership-txt",
        type: "TXT",
        host: names.txt,
        result: "missing",
        found: [],
        message: `no TXT record on ${names.txt}`,
      },
    ]);
    // a verify restarts the automatic checks: the next one a minute later
    expect(none.body.automaticChecks).toBe("scheduled");
    expect(Date.parse(none.body.nextCheckAt) - Date.parse(none.body.lastCheckedAt)).toBe(60_000);
    const firstCheck = Date.parse(none.body.lastCheckedAt);
    expect(Date.now() - firstCheck).toBeLessThan(60_000);

    // one CNAME in place
    publishRecords(dns(), [webCname]);
    const partial = await verify();
    expect(partial.body).toMatchObject({ status: "verifying", requiredAction: "waiting" });
    expect(partial.body.statusMessage).toMatch(/^Found 1 of 3 records/);
    expect(partial.body.statusMessage).toContain(names.oidc);
    expect(partial.body.statusMessage).toContain(txt.value);
    expect(partial.body.dnsChecks.map((c: { result: string }) => c.result)).toEqual([
      "found",
      "missing",
      "missing",
    ]);
    expect(partial.body.dnsChecks[0].found).toEqual([TEST_CNAME_TARGET]);
    expect(Date.parse(partial.body.lastCheckedAt)).toBeGreaterThanOrEqual(firstCheck);

    // the other CNAME points elsewhere and the token is someone else's
    dns().records.set(names.oidc, { CNAME: "old-provider.example.org" });
    dns().records.set(names.txt, { TXT: ["idv-verify=not-the-token"] });
    const wrong = await verify();
    expect(wrong.body).toMatchObject({ status: "invalid", requiredAction: "retry" });
    expect(wrong.body.statusMessage).toContain(
      `CNAME ${names.oidc} points at old-provider.example.org, expected ${TEST_CNAME_TARGET}`,
    );
    expect(wrong.body.statusMessage).toContain(
      `TXT ${names.txt} is "idv-verify=not-the-token", expected "${txt.value}"`,
    );
    expect(wrong.body.dnsChecks.slice(1)).toEqual([
      expect.objectContaining({ id: "oidc-cname", result: "wrong", found: ["old-provider.example.org"] }),
      expect.objectContaining({ id: "ownership-txt", result: "wrong", found: ["idv-verify=not-the-token"] }),
    ]);
    // an invalid domain waits for a fix and a verify: no automatic checks
    expect(wrong.body.automaticChecks).toBe("off");
    expect(wrong.body.nextCheckAt).toBeUndefined();

    // fixed
    dns().records.delete(names.oidc);
    dns().records.delete(names.txt);
    publishRecords(dns(), [oidcCname, txt]);
    const active = await verify();
    expect(active.body).toMatchObject({ status: "active", requiredAction: "none", automaticChecks: "off" });
    expect(active.body.statusMessage).toBeUndefined();
    expect(active.body.dnsChecks.every((c: { result: string }) => c.result === "found")).toBe(true);
    expect((await get()).body).toEqual(active.body);
    const [row] = await domainRows(app.clientId);
    expect(row!.activatedAt).not.toBeNull();

    const audit = await auditOf("custom_domain.checked", app.clientId);
    expect(audit.map((a) => [(a.data as { from: string }).from, (a.data as { to: string }).to])).toEqual([
      ["awaiting_dns", "awaiting_dns"],
      ["awaiting_dns", "verifying"],
      ["verifying", "invalid"],
      ["invalid", "active"],
    ]);
    expect(audit.every((a) => (a.data as { trigger: string }).trigger === "verify")).toBe(true);
  });

  it("keeps the state with requiredAction retry when DNS times out", async () => {
    const { names, put, verify } = await setup();
    const configured = await put();
    publishRecords(dns(), configured.body.dnsRecords);
    dns().silent.add(names.txt);
    const res = await verify();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "awaiting_dns", requiredAction: "retry" });
    expect(res.body.statusMessage).toContain(`the DNS lookup of ${names.txt} timed out`);
    expect(res.body.dnsChecks[2]).toMatchObject({ result: "lookup_failed", found: [] });
    expect(res.body.lastCheckedAt).toBeDefined();

    // once DNS answers again the verification completes
    dns().silent.delete(names.txt);
    expect((await verify()).body).toMatchObject({ status: "active", requiredAction: "none" });
    // an active domain stays active (and served) through a DNS outage
    dns().servfail.add(names.web);
    const outage = await verify();
    expect(outage.body).toMatchObject({ status: "active", requiredAction: "retry" });
    expect(outage.body.statusMessage).toContain("SERVFAIL");
  });

  it("follows DNS after activation: removed records take the domain out of service", async () => {
    const { app, key, verify, get } = await setup();
    const names = await makeActiveCustomDomain(dns(), key, "sandbox", app.clientId);
    dns().records.delete(names.web);
    dns().records.delete(names.oidc);
    dns().records.delete(names.txt);
    const res = await verify();
    expect(res.body).toMatchObject({ status: "awaiting_dns", requiredAction: "add_cname" });
    expect((await get()).body.status).toBe("awaiting_dns");
    const [row] = await domainRows(app.clientId);
    expect(row!.activatedAt).toBeNull();
  });

  it("calls address records where a CNAME belongs invalid", async () => {
    const { names, put, verify } = await setup();
    publishRecords(dns(), (await put()).body.dnsRecords);
    dns().records.set(names.web, { A: ["198.51.100.20"] });
    const res = await verify();
    expect(res.body).toMatchObject({ status: "invalid", requiredAction: "retry" });
    expect(res.body.statusMessage).toContain(
      `${names.web} has address records (198.51.100.20) instead of a CNAME`,
    );
  });

  it("asks to contact support when a host has become one of the service's own", async () => {
    const { names, put, verify } = await setup();
    publishRecords(dns(), (await put()).body.dnsRecords);
    const saved = process.env.IDV_HOSTS;
    process.env.IDV_HOSTS = JSON.stringify({ [names.oidc]: "/oidc/production" });
    try {
      const res = await verify();
      expect(res.body).toMatchObject({ status: "invalid", requiredAction: "contact_support" });
      expect(res.body.statusMessage).toContain(`${names.oidc} is now reserved by this service`);
    } finally {
      if (saved === undefined) delete process.env.IDV_HOSTS;
      else process.env.IDV_HOSTS = saved;
    }
  });

  it("is 404 without a custom domain, and refuses a body", async () => {
    const { app, key, verify, put } = await setup();
    const res = await verify();
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect(res.body.error.message).toContain("has no custom domain");
    await put();
    const withBody = await call("POST", `/api/sandbox/v1/apps/${app.clientId}/custom-domain/verify`, {
      headers: bearer(key),
      body: { status: "active" },
    });
    expect(withBody.status).toBe(400);
    const [row] = await domainRows(app.clientId);
    expect(row!.status).toBe("awaiting_dns");
    expect(row!.lastCheckedAt).toBeNull();
  });
});

describe("DELETE /v1/apps/{client_id}/custom-domain", () => {
  it("deletes the domain; then it is unconfigured, and deleting again is 404", async () => {
    const { app, key, remove, get, verify } = await setup();
    await makeActiveCustomDomain(dns(), key, "sandbox", app.clientId);
    const res = await remove();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect((await get()).body.status).toBe("unconfigured");
    expect(await domainRows(app.clientId)).toHaveLength(0);
    const audit = await auditOf("custom_domain.deleted", app.clientId);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toMatchObject({ from: "active", to: "unconfigured" });

    const again = await remove();
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect((await verify()).status).toBe(404);
  });
});

describe("custom-domain access", () => {
  const requests = [
    ["GET", ""],
    ["PUT", ""],
    ["POST", "/verify"],
    ["DELETE", ""],
  ] as const;

  it.each(requests)(
    "%s%s needs a workspace key of the app's workspace and environment",
    async (method, suffix) => {
      const { app, ws, put, names } = await setup();
      expect((await put()).status).toBe(200);
      const other = await makeWorkspace();
      const fresh = uniqueDomain();
      const body = method === "PUT" ? { webDomain: fresh.web, oidcDomain: fresh.oidc } : undefined;
      const path = `/api/sandbox/v1/apps/${app.clientId}/custom-domain${suffix}`;
      const before = await domainRows(app.clientId);

      const { forbidden } = await expectAppAccessRefused({ method, path, body, app, ws, other });

      // nothing changed, and the other workspace learnt nothing about the domain
      expect(await domainRows(app.clientId)).toEqual(before);
      expect(forbidden.text).not.toContain(names.web);
      expect(await countWithWebDomain(fresh.web)).toBe(0);
    },
  );

  it("lets console sessions change it by role: a viewer reads, a developer verifies", async () => {
    const { app, ws, put } = await setup();
    expect((await put()).status).toBe(200);
    const path = `/api/sandbox/v1/apps/${app.clientId}/custom-domain`;
    const viewer = await addMember(ws.workspaceId, "viewer");
    const asViewer = await sessionHeaders(viewer.userId, { workspaceId: ws.workspaceId });
    expect((await call("GET", path, { headers: asViewer })).status).toBe(200);
    for (const [method, suffix] of [
      ["POST", "/verify"],
      ["DELETE", ""],
    ] as const) {
      const refused = await call(method, `${path}${suffix}`, { headers: asViewer });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("RESOURCE_FORBIDDEN");
    }
    const developer = await addMember(ws.workspaceId, "developer");
    const asDeveloper = await sessionHeaders(developer.userId, { workspaceId: ws.workspaceId });
    const verified = await call("POST", `${path}/verify`, { headers: asDeveloper });
    expect(verified.status).toBe(200);
    expect(verified.body.dnsChecks).toHaveLength(3);
    const audit = await auditOf("custom_domain.checked", app.clientId);
    expect(audit.map((a) => [a.actorType, a.actorId])).toEqual([["user", developer.userId]]);
  });

  it("serves production apps through the production API", async () => {
    const { app, key, get } = await setup("production");
    const names = await makeActiveCustomDomain(dns(), key, "production", app.clientId);
    expect((await get()).body).toMatchObject({ webDomain: names.web, status: "active" });
  });
});
