import { Resolver } from "node:dns/promises";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { recheckCustomDomainsJob } from "../jobs/definitions";
import { CRONTAB, jobNamed } from "../jobs/handlers";
import { publishRecords, setupTestDns, TEST_CNAME_TARGET, uniqueDomain } from "../testing/custom-domains";
import { makeApp, makeWorkspace } from "../testing/factories";
import { bearer, call } from "../testing/router";
import { recheckDueDomains } from "./recheck";
import { RECHECK_GIVE_UP_DAYS } from "./schedule";

const dns = setupTestDns();
const MIN = 60_000;

/** An app with a configured (awaiting_dns) custom domain. */
async function configured() {
  const ws = await makeWorkspace();
  const key = ws.keys.sandbox;
  const app = await makeApp(key, "sandbox");
  const names = uniqueDomain();
  const url = `/api/sandbox/v1/apps/${app.clientId}/custom-domain`;
  const put = await call("PUT", url, {
    headers: bearer(key),
    body: { webDomain: names.web, oidcDomain: names.oidc },
  });
  expect(put.status).toBe(200);
  return {
    app,
    key,
    names,
    records: put.body.dnsRecords as { type: string; host: string; value: string }[],
    get: () => call("GET", url, { headers: bearer(key) }),
    verify: () => call("POST", `${url}/verify`, { headers: bearer(key) }),
  };
}

const row = (appId: string) =>
  kysely().selectFrom("customDomains").selectAll().where("appId", "=", appId).executeTakeFirstOrThrow();

// Domains of this file are made due far in the past, so they come before any other pending
// domain of the test database (claims take the oldest first) and each test knows what it gets.
let pastMinute = 0;
async function makeDue(appId: string, extra: { pendingSince?: Date; autoChecks?: number } = {}) {
  const at = new Date(Date.UTC(2000, 0, 1, 0, ++pastMinute));
  await setDomain(appId, { nextCheckAt: at, ...extra });
  return at;
}

/** Writes `values` to app `appId`'s custom domain (its updatedAt bumped). */
async function setDomain(
  appId: string,
  values: { nextCheckAt: Date; pendingSince?: Date; autoChecks?: number },
): Promise<void> {
  await kysely()
    .updateTable("customDomains")
    .set({ ...values, updatedAt: new Date() })
    .where("appId", "=", appId)
    .execute();
}

const checkedAudits = (appId: string) =>
  kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("action", "=", "custom_domain.checked")
    .where(sql<string>`data->>'appId'`, "=", appId)
    .orderBy("createdAt", "asc")
    .execute();

describe("custom_domain_recheck", () => {
  it("is a task the worker runs every minute", async () => {
    expect(await jobNamed(recheckCustomDomainsJob.name)!.handler()).toBeTypeOf("function");
    expect(CRONTAB).toContain(`* * * * * ${recheckCustomDomainsJob.name}`);
  });

  it("plans the first automatic check a minute after configuring", async () => {
    const before = Date.now();
    const { app, get } = await configured();
    const domain = await row(app.clientId);
    expect(domain.autoChecks).toBe(0);
    expect(domain.pendingSince!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(domain.nextCheckAt!.getTime() - domain.pendingSince!.getTime()).toBe(MIN);
    const body = (await get()).body;
    expect(body).toMatchObject({
      automaticChecks: "scheduled",
      nextCheckAt: domain.nextCheckAt!.toISOString(),
    });
    expect(body.dnsChecks).toBeUndefined();
  });

  it("activates a pending domain whose records appeared, without anyone verifying", async () => {
    const { app, names, records, get } = await configured();
    publishRecords(dns(), records);
    await makeDue(app.clientId);

    const summary = await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
    expect(summary).toMatchObject({ checked: 1, changed: 1, activated: 1 });

    const body = (await get()).body;
    expect(body).toMatchObject({ status: "active", requiredAction: "none", automaticChecks: "off" });
    expect(body.nextCheckAt).toBeUndefined();
    expect(body.statusMessage).toBeUndefined();
    expect(body.dnsChecks).toEqual([
      expect.objectContaining({ id: "web-cname", result: "found", found: [TEST_CNAME_TARGET] }),
      expect.objectContaining({ id: "oidc-cname", result: "found", found: [TEST_CNAME_TARGET] }),
      expect.objectContaining({ id: "ownership-txt", result: "found", found: [records[2]!.value] }),
    ]);
    const domain = await row(app.clientId);
    expect(domain).toMatchObject({ nextCheckAt: null, autoChecks: 0, pendingSince: null });
    expect(domain.activatedAt).not.toBeNull();
    expect(domain.lastCheckedAt).not.toBeNull();

    // the change is audited as the system's, with what triggered it
    const [audit] = await checkedAudits(app.clientId);
    expect(audit).toMatchObject({ actorType: "system", targetId: domain.id });
    expect(audit!.data).toMatchObject({ from: "awaiting_dns", to: "active", trigger: "schedule" });

    // the active domain is served (the TLS ask endpoint reads the database directly)
    const tls = await call("GET", `/api/tls/allowed?domain=${names.web}`);
    expect(tls.status).toBe(200);

    // active domains are not re-checked
    await setDomain(app.clientId, { nextCheckAt: new Date(0) });
    const again = await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
    expect((await row(app.clientId)).lastCheckedAt).toEqual(domain.lastCheckedAt);
    expect(again.activated).toBe(0);
  });

  it("backs off while nothing is there, auditing only changes of status", async () => {
    const { app, names, records, get } = await configured();
    await makeDue(app.clientId);

    const first = Date.now();
    await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
    let domain = await row(app.clientId);
    expect(domain).toMatchObject({ status: "awaiting_dns", requiredAction: "add_cname", autoChecks: 1 });
    // 5 minutes after this check
    expect(domain.nextCheckAt!.getTime() - first).toBeGreaterThanOrEqual(5 * MIN - 1000);
    expect(domain.nextCheckAt!.getTime() - Date.now()).toBeLessThanOrEqual(5 * MIN);
    let body = (await get()).body;
    expect(body.dnsChecks.map((c: { result: string }) => c.result)).toEqual([
      "missing",
      "missing",
      "missing",
    ]);
    expect(body.statusMessage).toMatch(/^No DNS records found yet/);
    expect(await checkedAudits(app.clientId)).toHaveLength(0);

    // one record shows: verifying, and the spell goes on with the next delay (15 min)
    publishRecords(dns(), [records[0]!]);
    await makeDue(app.clientId);
    await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
    domain = await row(app.clientId);
    expect(domain).toMatchObject({ status: "verifying", requiredAction: "waiting", autoChecks: 2 });
    expect(domain.nextCheckAt!.getTime() - Date.now()).toBeGreaterThan(14 * MIN);
    expect(domain.nextCheckAt!.getTime() - Date.now()).toBeLessThanOrEqual(15 * MIN);
    body = (await get()).body;
    expect(body.dnsChecks.map((c: { result: string }) => c.result)).toEqual(["found", "missing", "missing"]);
    const audits = await checkedAudits(app.clientId);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.data).toMatchObject({ from: "awaiting_dns", to: "verifying", trigger: "schedule" });

    // a wrong record ends the automatic checks: the integrator has to fix it and verify
    dns().records.set(names.oidc, { CNAME: "old-provider.example.org" });
    await makeDue(app.clientId);
    await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
    body = (await get()).body;
    expect(body).toMatchObject({ status: "invalid", requiredAction: "retry", automaticChecks: "off" });
    expect(body.dnsChecks[1]).toMatchObject({ result: "wrong", found: ["old-provider.example.org"] });
    expect((await row(app.clientId)).nextCheckAt).toBeNull();
  });

  it("keeps the state through a DNS outage and counts it as a check", async () => {
    const { app, names, records } = await configured();
    publishRecords(dns(), records);
    dns().silent.add(names.txt);
    try {
      await makeDue(app.clientId);
      await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
      const domain = await row(app.clientId);
      expect(domain).toMatchObject({ status: "awaiting_dns", requiredAction: "retry", autoChecks: 1 });
      expect(domain.nextCheckAt).not.toBeNull();
      expect(domain.dnsChecks).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: "ownership-txt", result: "lookup_failed" })]),
      );
    } finally {
      dns().silent.delete(names.txt);
    }
  });

  it(`gives up after ${RECHECK_GIVE_UP_DAYS} days and says so; a verify starts over`, async () => {
    const { app, get, verify } = await configured();
    const pendingSince = new Date(Date.now() - RECHECK_GIVE_UP_DAYS * 24 * 60 * MIN + 2 * MIN);
    await makeDue(app.clientId, { pendingSince, autoChecks: 30 });

    const summary = await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
    expect(summary).toMatchObject({ checked: 1, gaveUp: 1 });
    const body = (await get()).body;
    expect(body).toMatchObject({ status: "awaiting_dns", automaticChecks: "stopped" });
    expect(body.nextCheckAt).toBeUndefined();
    expect(body.statusMessage).toContain(`Automatic checks stopped after ${RECHECK_GIVE_UP_DAYS} days`);
    expect((await row(app.clientId)).nextCheckAt).toBeNull();

    const verified = await verify();
    expect(verified.body).toMatchObject({ status: "awaiting_dns", automaticChecks: "scheduled" });
    expect(verified.body.statusMessage).not.toContain("Automatic checks stopped");
    const restarted = await row(app.clientId);
    expect(restarted.autoChecks).toBe(0);
    expect(restarted.nextCheckAt!.getTime() - restarted.pendingSince!.getTime()).toBe(MIN);
  });

  it("checks at most batchSize domains per claim and maxBatches claims per run, oldest first", async () => {
    const domains = [await configured(), await configured(), await configured()];
    const due = [];
    for (const d of domains) due.push(await makeDue(d.app.clientId));

    const summary = await recheckDueDomains(kysely(), { batchSize: 2, maxBatches: 1 });
    expect(summary.checked + summary.skipped).toBe(2);
    const rows = await Promise.all(domains.map((d) => row(d.app.clientId)));
    expect(rows.map((r) => r.autoChecks)).toEqual([1, 1, 0]);
    expect(rows[2]!.nextCheckAt).toEqual(due[2]);

    // the next run takes the one left (and whatever else is due by now)
    await recheckDueDomains(kysely(), { batchSize: 2, maxBatches: 1 });
    expect((await row(domains[2]!.app.clientId)).autoChecks).toBe(1);
  });

  it("lets concurrent runs (several instances) check each domain once", async () => {
    const domains = [await configured(), await configured(), await configured(), await configured()];
    for (const d of domains) await makeDue(d.app.clientId);
    const asked = () => dns().queries.length;
    const before = asked();

    const runs = await Promise.all([
      recheckDueDomains(kysely(), { batchSize: 4, maxBatches: 1 }),
      recheckDueDomains(kysely(), { batchSize: 4, maxBatches: 1 }),
      recheckDueDomains(kysely(), { batchSize: 4, maxBatches: 1 }),
    ]);
    expect(runs.reduce((n, r) => n + r.checked, 0)).toBeGreaterThanOrEqual(4);
    for (const d of domains) {
      expect((await row(d.app.clientId)).autoChecks).toBe(1);
      const questions = dns()
        .queries.slice(before)
        .filter((q) => q === `CNAME ${d.names.web}`);
      expect(questions).toHaveLength(1);
    }
    expect(asked()).toBeGreaterThan(before);
  });

  it("tells a pending claim that another app's domain became active on its hosts first", async () => {
    const owner = await configured();
    // another workspace's app claims the same hosts; the zone's owner even publishes its token
    const ws = await makeWorkspace();
    const other = await makeApp(ws.keys.sandbox, "sandbox");
    const url = `/api/sandbox/v1/apps/${other.clientId}/custom-domain`;
    const put = await call("PUT", url, {
      headers: bearer(ws.keys.sandbox),
      body: { webDomain: owner.names.web, oidcDomain: owner.names.oidc },
    });
    expect(put.status).toBe(200);
    publishRecords(dns(), [...owner.records, put.body.dnsRecords[2]]);
    expect((await owner.verify()).body.status).toBe("active");

    await makeDue(other.clientId);
    const summary = await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1 });
    expect(summary).toMatchObject({ checked: 1, changed: 1, activated: 0 });
    const body = (await call("GET", url, { headers: bearer(ws.keys.sandbox) })).body;
    expect(body).toMatchObject({
      status: "invalid",
      requiredAction: "contact_support",
      automaticChecks: "off",
    });
    expect(body.statusMessage).toContain("in use by another app");
    const [audit] = await checkedAudits(other.clientId);
    expect(audit!.data).toMatchObject({ event: "host_taken", to: "invalid", trigger: "schedule" });
    expect((await owner.get()).body.status).toBe("active");
  });

  it("writes nothing when a verify changed the domain while DNS was being asked", async () => {
    const { app, key, records } = await configured();
    publishRecords(dns(), records);
    await makeDue(app.clientId);
    // a resolver that lets the integrator press Verify in the middle of the background lookup
    const resolver = new Resolver({ timeout: 250, tries: 1 });
    resolver.setServers([dns().address]);
    const resolveCname = resolver.resolveCname.bind(resolver);
    let interleaved = false;
    resolver.resolveCname = async (host: string) => {
      if (!interleaved) {
        interleaved = true;
        const res = await call("POST", `/api/sandbox/v1/apps/${app.clientId}/custom-domain/verify`, {
          headers: bearer(key),
        });
        expect(res.body.status).toBe("active");
      }
      return resolveCname(host);
    };

    const summary = await recheckDueDomains(kysely(), { batchSize: 1, maxBatches: 1, resolver });
    expect(summary).toMatchObject({ checked: 0, skipped: 1 });
    const audits = await checkedAudits(app.clientId);
    expect(audits.map((a) => (a.data as { trigger: string }).trigger)).toEqual(["verify"]);
    expect((await row(app.clientId)).status).toBe("active");
  });
});
