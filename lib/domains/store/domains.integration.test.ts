import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { setupTestDns, uniqueDomain } from "../../testing/custom-domains";
import { makeApp, makeWorkspace } from "../../testing/factories";
import { bearer, call } from "../../testing/router";
import { insertDomain, readDomainOfApp } from "./domains";

setupTestDns();

async function setup() {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  const url = `/api/sandbox/v1/apps/${app.clientId}/custom-domain`;
  return { ws, app, url, names: uniqueDomain() };
}

describe("an app's custom domain row", () => {
  it("is read whole: every column, the JSON documents and timestamps included", async () => {
    const { ws, app, url, names } = await setup();
    expect(await readDomainOfApp(kysely(), app.clientId)).toBeUndefined();
    const put = await call("PUT", url, {
      headers: bearer(ws.keys.sandbox),
      body: { webDomain: names.web, oidcDomain: names.oidc },
    });
    expect(put.status).toBe(200);
    const configured = await readDomainOfApp(kysely(), app.clientId);
    expect(configured?.dnsChecks).toBeNull();
    expect(configured).toEqual({
      id: expect.stringMatching(/^dom_/),
      appId: app.clientId,
      webDomain: names.web,
      oidcDomain: names.oidc,
      status: "awaiting_dns",
      requiredAction: put.body.requiredAction,
      statusMessage: null,
      dnsRecords: put.body.dnsRecords,
      verificationToken: expect.any(String),
      lastCheckedAt: null,
      activatedAt: null,
      dnsChecks: null,
      nextCheckAt: new Date(put.body.nextCheckAt),
      autoChecks: 0,
      pendingSince: expect.any(Date),
      claimExpiresAt: new Date(put.body.claimExpiresAt),
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(configured?.dnsRecords).toContainEqual(
      expect.objectContaining({ value: expect.stringContaining(configured!.verificationToken) }),
    );

    // a check writes the per-record results (a JSON array) and its timestamps
    const verify = await call("POST", `${url}/verify`, { headers: bearer(ws.keys.sandbox) });
    expect(verify.status).toBe(200);
    const checked = await readDomainOfApp(kysely(), app.clientId);
    expect(Array.isArray(checked?.dnsChecks)).toBe(true);
    expect(Array.isArray(checked?.dnsRecords)).toBe(true);
    expect(checked?.lastCheckedAt).toBeInstanceOf(Date);
    expect(checked).toEqual({
      ...configured,
      status: verify.body.status,
      requiredAction: verify.body.requiredAction,
      statusMessage: verify.body.statusMessage ?? null,
      dnsRecords: verify.body.dnsRecords,
      lastCheckedAt: new Date(verify.body.lastCheckedAt),
      dnsChecks: verify.body.dnsChecks,
      nextCheckAt: verify.body.nextCheckAt ? new Date(verify.body.nextCheckAt) : null,
      autoChecks: expect.any(Number),
      pendingSince: expect.any(Date),
      claimExpiresAt: new Date(verify.body.claimExpiresAt),
      updatedAt: expect.any(Date),
    });
    expect(checked!.updatedAt.getTime()).toBeGreaterThan(configured!.updatedAt.getTime());
  });
});

/** Whether a statement inserting into custom_domains waits for a lock (another transaction's row). */
async function insertWaiting(): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock'
       AND query ILIKE 'insert into "custom_domains"%'`.execute(kysely());
  return (rows[0]?.n ?? 0) > 0;
}

describe("configuring a custom domain", () => {
  it("answers CUSTOM_DOMAIN_EXISTS when a concurrent configure of the same app commits first (23505)", async () => {
    const { ws, app, url, names } = await setup();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = () => resolve();
    });
    // another configure of the app, its row written and not yet committed: the request's read
    // finds no domain, and its insert waits for this one on the unique app_id
    const first = kysely()
      .transaction()
      .execute(async (tx) => {
        const other = uniqueDomain();
        await insertDomain(tx, {
          id: `dom_${other.base}`,
          appId: app.clientId,
          webDomain: other.web,
          oidcDomain: other.oidc,
          status: "awaiting_dns",
          requiredAction: "add_dns_records",
          dnsRecords: "[]",
          verificationToken: "token",
          nextCheckAt: null,
          autoChecks: 0,
          pendingSince: null,
          claimExpiresAt: null,
        });
        await held;
      });
    const second = call("PUT", url, {
      headers: bearer(ws.keys.sandbox),
      body: { webDomain: names.web, oidcDomain: names.oidc },
    });
    const deadline = Date.now() + 10_000;
    while (!(await insertWaiting()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    release();
    await first;
    const res = await second;
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("CUSTOM_DOMAIN_EXISTS");
    expect(res.body.error.message).toBe(`App "${app.clientId}" already has a custom domain; delete it first`);
  });
});
