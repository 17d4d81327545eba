import { describe, expect, it } from "vitest";
import { describeDomain, domainStep } from "./describe";
import type { TCustomDomain } from "./queries";

const records: TCustomDomain["dnsRecords"] = ["web-cname", "oidc-cname", "ownership-txt"].map((id) => ({
  id,
  type: id.endsWith("txt") ? "TXT" : "CNAME",
  host: `${id}.example.com`,
  name: id,
  value: "edge.example.net",
  required: true,
  description: "",
}));

const base: TCustomDomain = {
  webDomain: "verify.example.com",
  oidcDomain: "auth.example.com",
  status: "awaiting_dns",
  requiredAction: "add_cname",
  dnsRecords: records,
  automaticChecks: "scheduled",
  nextCheckAt: "2026-11-24T10:01:00.000Z",
};

const check = (id: string, result: "found" | "missing" | "wrong" | "lookup_failed") => ({
  id,
  type: "CNAME" as const,
  host: id,
  result,
  found: [],
  message: "",
});

describe("describeDomain", () => {
  it("says when the service checks again by itself, and that Verify checks now", () => {
    const words = describeDomain(base, (iso) => `<${iso}>`);
    expect(words.label).toBe("Waiting for DNS records");
    expect(words.summary).toMatch(/not been checked yet/);
    expect(words.next).toContain("at <2026-11-24T10:01:00.000Z>");
    expect(words.next).toContain("press Verify");
  });

  it("counts the records found while verifying", () => {
    const words = describeDomain({
      ...base,
      status: "verifying",
      requiredAction: "waiting",
      lastCheckedAt: "2026-11-24T10:00:00.000Z",
      dnsChecks: [
        check("web-cname", "found"),
        check("oidc-cname", "missing"),
        check("ownership-txt", "missing"),
      ],
    });
    expect(words.label).toBe("Some records found");
    expect(words.summary).toMatch(/^1 of 3 records can be seen/);
  });

  it("says that the automatic checks stopped and how to start them again", () => {
    const words = describeDomain({
      ...base,
      automaticChecks: "stopped",
      nextCheckAt: undefined,
      lastCheckedAt: "2026-11-24T10:00:00.000Z",
    });
    expect(words.summary).toMatch(/None of the records/);
    expect(words.next).toMatch(/stopped checking by ourselves after 7 days.*Verify/);
  });

  it("tells a failed lookup from an answer", () => {
    const pending = describeDomain({
      ...base,
      requiredAction: "retry",
      lastCheckedAt: "2026-11-24T10:00:00Z",
    });
    expect(pending.summary).toContain("could not reach DNS");
    const active = describeDomain({
      ...base,
      status: "active",
      requiredAction: "retry",
      automaticChecks: "off",
    });
    expect(active).toMatchObject({ label: "Active", tone: "green" });
    expect(active.summary).toContain("stays active");
  });

  it("asks to fix a wrong record and verify, or to contact support", () => {
    expect(describeDomain({ ...base, status: "invalid", requiredAction: "retry" })).toMatchObject({
      label: "Wrong DNS record",
      tone: "red",
      next: expect.stringContaining("press Verify"),
    });
    expect(
      describeDomain({
        ...base,
        status: "invalid",
        requiredAction: "contact_support",
        statusMessage: "reserved",
      }),
    ).toMatchObject({
      label: "Cannot be activated",
      summary: "reserved",
      next: expect.stringMatching(/support/),
    });
  });
});

describe("domainStep", () => {
  it("moves from the hosts to the records to the check to done", () => {
    expect(domainStep({ ...base, status: "unconfigured" })).toBe(0);
    expect(domainStep(base)).toBe(1);
    const all = (result: "found" | "missing" | "wrong") => records.map((r) => check(r.id, result));
    expect(domainStep({ ...base, dnsChecks: all("found") })).toBe(2);
    expect(domainStep({ ...base, status: "active" })).toBe(3);
  });

  it("does not tick the records while a check finds any of them missing or wrong", () => {
    const checks = (...results: ("found" | "missing" | "wrong")[]) =>
      records.map((r, i) => check(r.id, results[i]!));
    expect(domainStep({ ...base, dnsChecks: [] })).toBe(1);
    expect(domainStep({ ...base, dnsChecks: checks("missing", "missing", "missing") })).toBe(1);
    expect(domainStep({ ...base, status: "verifying", dnsChecks: checks("found", "found", "missing") })).toBe(
      1,
    );
    expect(domainStep({ ...base, status: "invalid", dnsChecks: checks("found", "found", "wrong") })).toBe(1);
  });
});
