import { afterEach, describe, expect, it } from "vitest";
import { customDomainPath, mayBeCustomDomain } from "./routing";

const web = { kind: "web", environment: "sandbox" } as const;
const oidcSandbox = { kind: "oidc", environment: "sandbox" } as const;
const oidcProduction = { kind: "oidc", environment: "production" } as const;

describe("customDomainPath", () => {
  it("serves the hosted pages on the web domain as addressed", () => {
    expect(customDomainPath(web, "/verify/ver_123")).toBeUndefined();
    expect(customDomainPath(web, "/verify/ver_123/callback")).toBeUndefined();
    expect(customDomainPath(web, "/verify")).toBeUndefined();
  });

  it("serves the simulator on a sandbox web domain only", () => {
    expect(customDomainPath(web, "/sandbox/verify/ver_123")).toBeUndefined();
    expect(customDomainPath(web, "/sandbox/verify/ver_123/act")).toBeUndefined();
    const production = { kind: "web", environment: "production" } as const;
    expect(customDomainPath(production, "/sandbox/verify/ver_123")).toBe("/verify/sandbox/verify/ver_123");
    expect(customDomainPath(web, "/sandbox/other")).toBe("/verify/sandbox/other");
  });

  it("keeps every other path of the web domain inside the hosted pages", () => {
    expect(customDomainPath(web, "/")).toBe("/verify");
    expect(customDomainPath(web, "/login")).toBe("/verify/login");
    expect(customDomainPath(web, "/api/sandbox/v1/apps")).toBe("/verify/api/sandbox/v1/apps");
    expect(customDomainPath(web, "/oidc/sandbox/token")).toBe("/verify/oidc/sandbox/token");
    expect(customDomainPath(web, "/verifyx")).toBe("/verify/verifyx");
  });

  it("puts the OIDC domain's paths under the app environment's issuer path", () => {
    expect(customDomainPath(oidcSandbox, "/.well-known/openid-configuration")).toBe(
      "/oidc/sandbox/.well-known/openid-configuration",
    );
    expect(customDomainPath(oidcProduction, "/token")).toBe("/oidc/production/token");
    expect(customDomainPath(oidcProduction, "/")).toBe("/oidc/production");
    // already under the prefix: as addressed; another environment's path stays inside this one
    expect(customDomainPath(oidcProduction, "/oidc/production/jwks")).toBeUndefined();
    expect(customDomainPath(oidcProduction, "/oidc/sandbox/jwks")).toBe("/oidc/production/oidc/sandbox/jwks");
  });

  it("never rewrites framework assets", () => {
    expect(customDomainPath(web, "/_next/static/chunks/app.js")).toBeUndefined();
    expect(customDomainPath(oidcSandbox, "/_next/data/x.json")).toBeUndefined();
  });
});

describe("mayBeCustomDomain", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ["PUBLIC_URL", "IDV_HOSTS", "IDV_CNAME_TARGET"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it("returns the normalised host of names worth looking up", () => {
    process.env.PUBLIC_URL = "https://idv.example.net";
    delete process.env.IDV_HOSTS;
    delete process.env.IDV_CNAME_TARGET;
    expect(mayBeCustomDomain("Verify.Shop.Example.com:443")).toBe("verify.shop.example.com");
  });

  it("skips the service's own hosts, IP addresses and names without a dot", () => {
    process.env.PUBLIC_URL = "https://idv.example.net";
    process.env.IDV_CNAME_TARGET = "edge.example.net";
    process.env.IDV_HOSTS = JSON.stringify({ "api.example.net": "/api/production" });
    for (const host of ["idv.example.net", "IDV.example.net:443", "edge.example.net", "api.example.net"])
      expect(mayBeCustomDomain(host)).toBeUndefined();
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "", null])
      expect(mayBeCustomDomain(host)).toBeUndefined();
  });
});
