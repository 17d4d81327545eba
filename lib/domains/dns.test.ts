import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestDnsServer, type TTestDnsServer } from "../testing/dns-server";
import { buildDnsRecords, checkDnsRecords, createResolver, describeDnsChecks, toDnsCheckJson } from "./dns";
import { classifyDnsChecks } from "./state-machine";

const TARGET = "edge.idv.example.net";
const pair = {
  webDomain: "verify.shop.example.com",
  oidcDomain: "auth.shop.example.com",
  baseDomain: "example.com",
};
const records = buildDnsRecords(pair, TARGET, "tok123");

let dns: TTestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer();
});
afterAll(async () => {
  await dns.close();
});
beforeEach(() => {
  dns.records.clear();
  dns.silent.clear();
  dns.servfail.clear();
});

const check = () =>
  checkDnsRecords(records, createResolver({ servers: [dns.address], timeoutMs: 200, tries: 1 }));
const states = async () => Object.fromEntries((await check()).map((c) => [c.id, c.state]));

function publishAll() {
  dns.records.set("verify.shop.example.com", { CNAME: TARGET });
  dns.records.set("auth.shop.example.com", { CNAME: `${TARGET}.` });
  dns.records.set("_idv-challenge.example.com", { TXT: ["google-site-verification=x", "idv-verify=tok123"] });
}

describe("buildDnsRecords", () => {
  it("asks for a CNAME per host and one TXT ownership record on the base domain", () => {
    expect(records).toEqual([
      expect.objectContaining({
        id: "web-cname",
        type: "CNAME",
        host: "verify.shop.example.com",
        name: "verify.shop",
        value: TARGET,
        required: true,
      }),
      expect.objectContaining({
        id: "oidc-cname",
        type: "CNAME",
        host: "auth.shop.example.com",
        name: "auth.shop",
        value: TARGET,
        required: true,
      }),
      expect.objectContaining({
        id: "ownership-txt",
        type: "TXT",
        host: "_idv-challenge.example.com",
        name: "_idv-challenge",
        value: "idv-verify=tok123",
        required: true,
      }),
    ]);
    for (const r of records) expect(r.description.length).toBeGreaterThan(10);
  });
});

describe("checkDnsRecords", () => {
  it("finds every record right (trailing dots and other TXT values do not matter)", async () => {
    publishAll();
    expect(await states()).toEqual({ "web-cname": "ok", "oidc-cname": "ok", "ownership-txt": "ok" });
    expect(classifyDnsChecks(await check())).toBe("dns_complete");
  });

  it("reports missing records for NXDOMAIN and for names without that record type", async () => {
    dns.records.set("auth.shop.example.com", { TXT: ["unrelated"] });
    dns.records.set("_idv-challenge.example.com", { TXT: ["something else"] });
    expect(await states()).toEqual({
      "web-cname": "missing",
      "oidc-cname": "missing",
      "ownership-txt": "missing",
    });
    const checks = await check();
    const message = describeDnsChecks("dns_missing", checks, records)!;
    expect(message).toContain(`CNAME verify.shop.example.com → ${TARGET}`);
    expect(message).toContain(`TXT _idv-challenge.example.com = "idv-verify=tok123"`);
  });

  it("follows a CNAME chain to the target", async () => {
    publishAll();
    dns.records.set("verify.shop.example.com", { CNAME: "lb.shop.example.com" });
    dns.records.set("lb.shop.example.com", { CNAME: "lb2.cdn.example.org" });
    dns.records.set("lb2.cdn.example.org", { CNAME: TARGET });
    expect((await states())["web-cname"]).toBe("ok");
  });

  it("calls a CNAME to elsewhere wrong, naming where it points", async () => {
    publishAll();
    dns.records.set("auth.shop.example.com", { CNAME: "old-provider.example.org" });
    const checks = await check();
    expect(checks.find((c) => c.id === "oidc-cname")).toMatchObject({
      state: "wrong",
      message: `CNAME auth.shop.example.com points at old-provider.example.org, expected ${TARGET}`,
    });
    expect(classifyDnsChecks(checks)).toBe("dns_wrong");
    expect(describeDnsChecks("dns_wrong", checks, records)).toMatch(
      /old-provider\.example\.org.*Fix the records/,
    );
  });

  it("calls address records where the CNAME belongs wrong", async () => {
    publishAll();
    dns.records.set("verify.shop.example.com", { A: ["192.0.2.7"], AAAA: ["2001:db8::7"] });
    const web = (await check()).find((c) => c.id === "web-cname")!;
    expect(web.state).toBe("wrong");
    expect(web.message).toMatch(/address records \(192\.0\.2\.7, 2001:db8::7\) instead of a CNAME/);
  });

  it("calls another idv-verify token wrong", async () => {
    publishAll();
    dns.records.set("_idv-challenge.example.com", { TXT: ["idv-verify=someone-else"] });
    const txt = (await check()).find((c) => c.id === "ownership-txt")!;
    expect(txt).toMatchObject({ state: "wrong" });
    expect(txt.message).toBe(
      `TXT _idv-challenge.example.com is "idv-verify=someone-else", expected "idv-verify=tok123"`,
    );
  });

  it("treats a timeout or a failing name server as no answer, not as a verdict", async () => {
    publishAll();
    dns.silent.add("_idv-challenge.example.com");
    dns.servfail.add("auth.shop.example.com");
    const started = Date.now();
    const checks = await check();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(Object.fromEntries(checks.map((c) => [c.id, c.state]))).toEqual({
      "web-cname": "ok",
      "oidc-cname": "unreachable",
      "ownership-txt": "unreachable",
    });
    expect(classifyDnsChecks(checks)).toBe("dns_unreachable");
    const message = describeDnsChecks("dns_unreachable", checks, records)!;
    expect(message).toContain("the DNS lookup of _idv-challenge.example.com timed out");
    expect(message).toContain("auth.shop.example.com failed at the name server (SERVFAIL)");
    expect(message).toMatch(/Nothing was changed/);
  });

  it("reports an unreachable name server", async () => {
    const closed = await startTestDnsServer();
    const address = closed.address;
    await closed.close();
    const checks = await checkDnsRecords(
      records,
      createResolver({ servers: [address], timeoutMs: 200, tries: 1 }),
    );
    expect(checks.every((c) => c.state === "unreachable")).toBe(true);
  });

  it("keeps what was found at each name, and shows the results as the API does", async () => {
    dns.records.set("verify.shop.example.com", { CNAME: "lb.shop.example.com" });
    dns.records.set("lb.shop.example.com", { CNAME: TARGET });
    dns.records.set("auth.shop.example.com", { A: ["192.0.2.7"] });
    dns.records.set("_idv-challenge.example.com", { TXT: ["v=spf1 -all"] });
    const json = (await check()).map(toDnsCheckJson);
    expect(json).toEqual([
      {
        id: "web-cname",
        type: "CNAME",
        host: "verify.shop.example.com",
        result: "found",
        found: ["lb.shop.example.com"],
        message: `CNAME verify.shop.example.com → ${TARGET}`,
      },
      expect.objectContaining({ id: "oidc-cname", result: "wrong", found: ["192.0.2.7"] }),
      expect.objectContaining({ id: "ownership-txt", result: "missing", found: ["v=spf1 -all"] }),
    ]);
    dns.records.clear();
    dns.servfail.add("auth.shop.example.com");
    const after = (await check()).map(toDnsCheckJson);
    expect(after.map((c) => [c.result, c.found])).toEqual([
      ["missing", []],
      ["lookup_failed", []],
      ["missing", []],
    ]);
  });

  it("describes a partial setup by what is still missing", async () => {
    dns.records.set("verify.shop.example.com", { CNAME: TARGET });
    const checks = await check();
    expect(classifyDnsChecks(checks)).toBe("dns_partial");
    const message = describeDnsChecks("dns_partial", checks, records)!;
    expect(message).toMatch(/^Found 1 of 3 records/);
    expect(message).toContain("auth.shop.example.com");
    expect(message).not.toContain("CNAME verify.shop.example.com");
  });
});
