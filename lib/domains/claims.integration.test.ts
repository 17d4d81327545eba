/**
 * Issue 12, item 11: no squatting on custom domains. Only an active domain holds its hosts;
 * claims coexist, the first to prove ownership in DNS wins, claims expire.
 */
import { afterEach, describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { countRows } from "../db/kysely";
import { publishRecords, setupTestDns, uniqueDomain } from "../testing/custom-domains";
import { makeApp, makeWorkspace } from "../testing/factories";
import { bearer, call } from "../testing/router";
import { expireClaims } from "./claims";
import { findActiveCustomDomainHost } from "./routing";

const dns = setupTestDns();
const DAY = 24 * 3600_000;

interface TRecord {
  id: string;
  type: string;
  host: string;
  value: string;
}

/** An app of a workspace of its own, and its custom-domain API. */
async function tenant() {
  const ws = await makeWorkspace();
  const key = ws.keys.sandbox;
  const app = await makeApp(key, "sandbox");
  const url = `/api/sandbox/v1/apps/${app.clientId}/custom-domain`;
  return {
    ws,
    app,
    get: () => call("GET", url, { headers: bearer(key) }),
    put: (hosts: { web: string; oidc: string }) =>
      call("PUT", url, { headers: bearer(key), body: { webDomain: hosts.web, oidcDomain: hosts.oidc } }),
    verify: () => call("POST", `${url}/verify`, { headers: bearer(key) }),
  };
}

const rowOf = async (appId: string) =>
  (await kysely().selectFrom("customDomains").selectAll().where("appId", "=", appId).executeTakeFirst()) ??
  null;
const activeOn = (webDomain: string) =>
  countRows(
    kysely().selectFrom("customDomains").where("webDomain", "=", webDomain).where("status", "=", "active"),
  );
const txtOf = (records: TRecord[]) => records.find((r) => r.id === "ownership-txt")!;
const cnamesOf = (records: TRecord[]) => records.filter((r) => r.type === "CNAME");

describe("claims on the same hosts", () => {
  it("are all accepted; the first to prove ownership in DNS becomes active, the others are told", async () => {
    const names = uniqueDomain();
    const owner = await tenant();
    const squatter = await tenant();

    // the squatter claims first; the owner's claim is accepted all the same, and neither answer
    // says anything about the other
    const squatted = await squatter.put(names);
    expect(squatted.status).toBe(200);
    const claimed = await owner.put(names);
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: "awaiting_dns", webDomain: names.web });
    expect(claimed.text).not.toContain(squatter.app.clientId);
    expect(claimed.text).not.toContain(squatter.ws.workspaceId);

    // the owner publishes the CNAMEs and its own ownership token; the squatter's token is not there
    const ownerRecords: TRecord[] = claimed.body.dnsRecords;
    const squatterRecords: TRecord[] = squatted.body.dnsRecords;
    expect(txtOf(ownerRecords).value).not.toBe(txtOf(squatterRecords).value);
    publishRecords(dns(), ownerRecords);

    // the squatter cannot get further: its TXT record is not there
    const early = await squatter.verify();
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ status: "invalid", requiredAction: "retry" });
    expect(early.body.dnsChecks[2]).toMatchObject({ id: "ownership-txt", result: "wrong" });

    // the owner's check proves ownership: active and served
    const won = await owner.verify();
    expect(won.status).toBe(200);
    expect(won.body).toMatchObject({ status: "active", requiredAction: "none" });
    expect(won.body.claimExpiresAt).toBeUndefined();
    expect(await findActiveCustomDomainHost(kysely(), names.web)).toEqual({
      kind: "web",
      environment: "sandbox",
      appId: owner.app.clientId,
    });

    // even with its token in DNS too (say the zone's owner was tricked into adding it), the
    // squatter's next check is refused with a clear code, and its domain says why
    publishRecords(dns(), [txtOf(squatterRecords)]);
    const lost = await squatter.verify();
    expect(lost.status).toBe(400);
    expect(lost.body.error.code).toBe("DOMAIN_IN_USE");
    expect(lost.body.error.details[0]).toEqual({
      path: "webDomain",
      message: `${names.web} is already used by another app`,
    });
    expect(lost.text).not.toContain(owner.app.clientId);
    const shown = (await squatter.get()).body;
    expect(shown).toMatchObject({ status: "invalid", requiredAction: "contact_support" });
    expect(shown.statusMessage).toContain(`${names.web} and ${names.oidc} are in use by another app`);
    expect(shown.statusMessage).not.toContain(owner.app.clientId);
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("action", "=", "custom_domain.checked")
      .where("targetId", "=", (await rowOf(squatter.app.clientId))!.id)
      .orderBy("createdAt", "desc")
      .executeTakeFirst();
    expect(audit!.data).toMatchObject({ event: "host_taken", from: "invalid", to: "invalid" });

    // the owner's domain is untouched and still the only active one
    expect((await owner.get()).body.status).toBe("active");
    expect(await activeOn(names.web)).toBe(1);

    // an active domain is exclusive: a new claim on its hosts is refused at once
    const late = await tenant();
    const refused = await late.put(names);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("DOMAIN_IN_USE");
    expect(await rowOf(late.app.clientId)).toBeNull();
  });

  it("sees a host taken in the other role (another app's oidcDomain as this webDomain)", async () => {
    const names = uniqueDomain();
    const owner = await tenant();
    const other = await tenant();
    const crossed = { web: names.oidc, oidc: `login.${names.base}` };
    const otherClaim = await other.put(crossed);
    expect(otherClaim.status).toBe(200);
    const ownerClaim = await owner.put(names);
    publishRecords(dns(), ownerClaim.body.dnsRecords);
    expect((await owner.verify()).body.status).toBe("active");

    publishRecords(dns(), otherClaim.body.dnsRecords);
    const lost = await other.verify();
    expect(lost.status).toBe(400);
    expect(lost.body.error.code).toBe("DOMAIN_IN_USE");
    expect(lost.body.error.details[0].path).toBe("webDomain");
    expect((await other.get()).body.statusMessage).toContain(`${names.oidc} is in use by another app`);
  });

  it("lets exactly one of two concurrent verifies with valid records win", async () => {
    const names = uniqueDomain();
    const a = await tenant();
    const b = await tenant();
    const ra: TRecord[] = (await a.put(names)).body.dnsRecords;
    const rb: TRecord[] = (await b.put(names)).body.dnsRecords;
    publishRecords(dns(), [...cnamesOf(ra), txtOf(ra), txtOf(rb)]);

    const results = await Promise.all([a.verify(), b.verify()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results.find((r) => r.status === 200)!;
    expect(winner.body.status).toBe("active");
    expect(results.find((r) => r.status === 400)!.body.error.code).toBe("DOMAIN_IN_USE");
    expect(await activeOn(names.web)).toBe(1);
  });

  it("frees the hosts again when the active domain is deleted: the other claim can win", async () => {
    const names = uniqueDomain();
    const first = await tenant();
    const second = await tenant();
    const r1: TRecord[] = (await first.put(names)).body.dnsRecords;
    const r2: TRecord[] = (await second.put(names)).body.dnsRecords;
    publishRecords(dns(), [...cnamesOf(r1), txtOf(r1), txtOf(r2)]);
    expect((await first.verify()).body.status).toBe("active");
    expect((await second.verify()).status).toBe(400);

    await call("DELETE", `/api/sandbox/v1/apps/${first.app.clientId}/custom-domain`, {
      headers: bearer(first.ws.keys.sandbox),
    });
    const now = await second.verify();
    expect(now.status).toBe(200);
    expect(now.body.status).toBe("active");
  });
});

describe("claims expire", () => {
  const saved = process.env.IDV_DOMAIN_CLAIM_DAYS;
  afterEach(() => {
    if (saved === undefined) delete process.env.IDV_DOMAIN_CLAIM_DAYS;
    else process.env.IDV_DOMAIN_CLAIM_DAYS = saved;
  });

  it("after IDV_DOMAIN_CLAIM_DAYS (default 7); verifying does not extend a claim", async () => {
    const t = await tenant();
    const before = Date.now();
    const put = await t.put(uniqueDomain());
    const expires = Date.parse(put.body.claimExpiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * DAY);
    const verified = await t.verify();
    expect(verified.body.status).toBe("awaiting_dns");
    expect(verified.body.claimExpiresAt).toBe(put.body.claimExpiresAt);

    process.env.IDV_DOMAIN_CLAIM_DAYS = "2";
    const other = await tenant();
    const shorter = await other.put(uniqueDomain());
    expect(Date.parse(shorter.body.claimExpiresAt)).toBeLessThanOrEqual(Date.now() + 2 * DAY);
  });

  it("are deleted by the re-check job once expired; active domains and live claims stay", async () => {
    const expired = await tenant();
    const live = await tenant();
    const active = await tenant();
    await expired.put(uniqueDomain());
    await live.put(uniqueDomain());
    const names = uniqueDomain();
    publishRecords(dns(), (await active.put(names)).body.dnsRecords);
    expect((await active.verify()).body.status).toBe("active");
    // as if the claim period had passed (the job compares with the database's rows only)
    const past = new Date(Date.UTC(2000, 0, 1));
    await kysely()
      .updateTable("customDomains")
      .set({ claimExpiresAt: past, updatedAt: new Date() })
      .where("appId", "=", expired.app.clientId)
      .execute();
    await kysely()
      .updateTable("customDomains")
      .set({ claimExpiresAt: past, updatedAt: new Date() })
      .where("appId", "=", active.app.clientId)
      .execute();
    const expiredId = (await rowOf(expired.app.clientId))!.id;

    expect(await expireClaims(kysely(), { batchSize: 1, maxBatches: 5 })).toBeGreaterThanOrEqual(1);

    expect(await rowOf(expired.app.clientId)).toBeNull();
    expect((await expired.get()).body.status).toBe("unconfigured");
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("action", "=", "custom_domain.expired")
      .where("targetId", "=", expiredId)
      .executeTakeFirst();
    expect(audit).toMatchObject({ actorType: "system", workspaceId: expired.ws.workspaceId });
    expect(audit!.data).toMatchObject({ appId: expired.app.clientId, from: "awaiting_dns" });
    expect((await live.get()).body.status).toBe("awaiting_dns");
    expect((await active.get()).body.status).toBe("active");
  });

  it("start over when an active domain loses its records", async () => {
    const t = await tenant();
    const names = uniqueDomain();
    publishRecords(dns(), (await t.put(names)).body.dnsRecords);
    expect((await t.verify()).body.status).toBe("active");
    expect((await rowOf(t.app.clientId))!.claimExpiresAt).toBeNull();
    dns().records.delete(names.txt);
    const before = Date.now();
    const lost = await t.verify();
    expect(lost.body.status).toBe("verifying");
    expect(Date.parse(lost.body.claimExpiresAt)).toBeGreaterThanOrEqual(before + 7 * DAY);
  });
});
