import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { parseCustomHost, parseDomainPair, relativeName } from "./hosts";

function refusal(fn: () => unknown): { path: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(400);
    return e.details[0]!;
  }
  throw new Error("expected a refusal");
}

describe("parseCustomHost", () => {
  it("normalises case, surrounding space, one trailing dot and Unicode", () => {
    expect(parseCustomHost(" Verify.Shop.Example.COM. ", "webDomain")).toEqual({
      host: "verify.shop.example.com",
      baseDomain: "example.com",
    });
    expect(parseCustomHost("prüfung.example.de", "webDomain").host).toBe("xn--prfung-4ya.example.de");
  });

  it("finds the registrable base domain with the Public Suffix List", () => {
    expect(parseCustomHost("verify.shop.example.co.uk", "webDomain").baseDomain).toBe("example.co.uk");
    expect(parseCustomHost("a.b.c.example.com", "webDomain").baseDomain).toBe("example.com");
    // a private suffix: each github.io subdomain is its own base domain
    expect(parseCustomHost("verify.alice.github.io", "webDomain").baseDomain).toBe("alice.github.io");
  });

  it.each([
    ["https://verify.example.com", /scheme/],
    ["//verify.example.com", /scheme/],
    ["verify.example.com/path", /path/],
    ["verify.example.com?x=1", /query/],
    ["verify.example.com#x", /fragment/],
    ["user@verify.example.com", /user info/],
    ["verify.example.com:8443", /port/],
    ["*.example.com", /wildcard/],
    ["192.0.2.10", /IP address/],
    ["192.0.2.10:443", /IP address/],
    ["[2001:db8::1]", /IP address/],
    ["2001:db8::1", /IP address/],
    ["", /empty/],
    ["verify example.com", /spaces/],
    ["localhost", /fully qualified/],
    ["-verify.example.com", /invalid label/],
    ["verify_1.example.com", /invalid label/],
    ["verify..example.com", /empty labels/],
    [`${"a".repeat(64)}.example.com`, /invalid label/],
    [`${"a.".repeat(130)}example.com`, /253/],
    ["co.uk", /public suffix/],
    ["com", /fully qualified/],
    ["github.io", /public suffix/],
    ["verify.example.test", /not a public domain suffix/],
    ["verify.example.123", /not a valid domain name/],
    ["example.com", /base domain/],
  ])("refuses %j, naming the field", (value, reason) => {
    const detail = refusal(() => parseCustomHost(value, "webDomain"));
    expect(detail.path).toBe("webDomain");
    expect(detail.message).toMatch(reason);
  });
});

describe("parseDomainPair", () => {
  it("accepts two hosts below one base domain", () => {
    expect(
      parseDomainPair({ webDomain: "verify.shop.example.co.uk", oidcDomain: "Auth.Shop.Example.co.uk" }),
    ).toEqual({
      webDomain: "verify.shop.example.co.uk",
      oidcDomain: "auth.shop.example.co.uk",
      baseDomain: "example.co.uk",
    });
    // different subdomain depths are fine as long as the base domain is shared
    expect(
      parseDomainPair({ webDomain: "verify.example.com", oidcDomain: "login.eu.example.com" }).baseDomain,
    ).toBe("example.com");
  });

  it("refuses the same host twice", () => {
    const detail = refusal(() =>
      parseDomainPair({ webDomain: "id.example.com", oidcDomain: "ID.example.com." }),
    );
    expect(detail).toEqual({ path: "oidcDomain", message: "must differ from webDomain" });
  });

  it("refuses hosts of different base domains", () => {
    const detail = refusal(() =>
      parseDomainPair({ webDomain: "verify.example.com", oidcDomain: "auth.example.net" }),
    );
    expect(detail.path).toBe("oidcDomain");
    expect(detail.message).toMatch(/example\.com.*example\.net/);
    // same registrable name, different suffix: still different base domains
    expect(
      refusal(() => parseDomainPair({ webDomain: "a.example.co.uk", oidcDomain: "b.example.uk" })).path,
    ).toBe("oidcDomain");
    // sibling github.io sites belong to different owners
    expect(
      refusal(() => parseDomainPair({ webDomain: "v.alice.github.io", oidcDomain: "a.bob.github.io" })).path,
    ).toBe("oidcDomain");
  });

  it("names the webDomain field first when both are bad", () => {
    expect(refusal(() => parseDomainPair({ webDomain: "https://x", oidcDomain: "co.uk" })).path).toBe(
      "webDomain",
    );
  });

  it("refuses hosts of the service itself", () => {
    const reserved = new Set(["edge.idv.example.net", "auth.idv.example.net"]);
    const detail = refusal(() =>
      parseDomainPair({ webDomain: "verify.idv.example.net", oidcDomain: "auth.idv.example.net" }, reserved),
    );
    expect(detail.path).toBe("oidcDomain");
    expect(detail.message).toMatch(/host of this service/);
  });
});

describe("relativeName", () => {
  it("is the part below the base domain", () => {
    expect(relativeName("verify.shop.example.co.uk", "example.co.uk")).toBe("verify.shop");
    expect(relativeName("_idv-challenge.example.com", "example.com")).toBe("_idv-challenge");
    expect(relativeName("example.com", "example.com")).toBe("@");
  });
});
