import { describe, expect, it } from "vitest";
import { buildDnsRecords } from "./dns";
import { cnameTargetProblem, cnameTargetWarnings } from "./cname-target";
import { toCustomDomainJson, unconfiguredDomainJson } from "./serialize";
import type { TCustomDomainRow } from "./store/domains";

describe("cnameTargetProblem", () => {
  it("refuses IP literals, local and single-label names", () => {
    expect(cnameTargetProblem("127.0.0.1")).toBe("127.0.0.1 is an IP address");
    expect(cnameTargetProblem("203.0.113.7")).toMatch(/IP address/);
    expect(cnameTargetProblem("::1")).toMatch(/IP address/);
    expect(cnameTargetProblem("[2001:db8::1]")).toMatch(/IP address/);
    expect(cnameTargetProblem("localhost")).toMatch(/local name/);
    expect(cnameTargetProblem("LOCALHOST.")).toMatch(/local name/);
    expect(cnameTargetProblem("app.localhost")).toMatch(/local name/);
    expect(cnameTargetProblem("edge")).toMatch(/not a full DNS name/);
  });

  it("accepts DNS names, including ones that start with digits", () => {
    expect(cnameTargetProblem("edge.idv.example.net")).toBeUndefined();
    expect(cnameTargetProblem("edge.idv.example.net.")).toBeUndefined();
    expect(cnameTargetProblem("1.2.3.4.nip.io")).toBeUndefined();
  });
});

describe("cnameTargetWarnings", () => {
  it("says what the operator must set, once per target", () => {
    const warnings = cnameTargetWarnings(["127.0.0.1", "127.0.0.1"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe("cname_target_unusable");
    expect(warnings[0]!.message).toContain("127.0.0.1 is an IP address");
    expect(warnings[0]!.message).toContain("must set PUBLIC_URL (or IDV_CNAME_TARGET) to a DNS name");
    expect(cnameTargetWarnings(["edge.example.net"])).toEqual([]);
  });
});

describe("the custom domain JSON", () => {
  const pair = {
    webDomain: "verify.shop.example.com",
    oidcDomain: "auth.shop.example.com",
    baseDomain: "example.com",
  };
  const row = (target: string) =>
    ({
      webDomain: pair.webDomain,
      oidcDomain: pair.oidcDomain,
      status: "awaiting_dns",
      requiredAction: "add_cname",
      statusMessage: null,
      dnsRecords: buildDnsRecords(pair, target, "tok123"),
      lastCheckedAt: null,
      dnsChecks: null,
      nextCheckAt: new Date("2026-11-29T12:00:00Z"),
      claimExpiresAt: new Date("2026-12-06T12:00:00Z"),
    }) as unknown as TCustomDomainRow;

  it("warns about the target the records were made with", () => {
    const json = toCustomDomainJson(row("127.0.0.1"));
    expect(json.warnings?.map((w) => w.code)).toEqual(["cname_target_unusable"]);
    expect(json.warnings?.[0]?.message).toContain("127.0.0.1 is an IP address");
  });

  it("has no warnings with a DNS name", () => {
    expect(toCustomDomainJson(row("edge.idv.example.net"))).not.toHaveProperty("warnings");
  });

  it("warns an unconfigured app before it configures anything", () => {
    expect(unconfiguredDomainJson("localhost").warnings?.[0]?.message).toMatch(/local name/);
    expect(unconfiguredDomainJson("edge.idv.example.net")).toEqual({
      webDomain: null,
      oidcDomain: null,
      status: "unconfigured",
      requiredAction: "none",
      dnsRecords: [],
      automaticChecks: "off",
    });
  });
});
