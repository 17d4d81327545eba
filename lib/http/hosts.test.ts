import { describe, expect, it } from "vitest";
import { normalizeHost, parseHostMap, rewriteHostPath, rewriteUnderPrefix } from "./hosts";

const map = parseHostMap(
  JSON.stringify({
    "api.sandbox.example.com": "/api/sandbox",
    "api.example.com": "/api/production",
    "auth.example.com": "/oidc/production",
  }),
);

describe("rewriteHostPath", () => {
  it("puts a dedicated API host's paths under its REST base", () => {
    expect(rewriteHostPath(map, "api.sandbox.example.com", "/v1/apps")).toBe("/api/sandbox/v1/apps");
    expect(rewriteHostPath(map, "api.example.com", "/v1/apps/abc")).toBe("/api/production/v1/apps/abc");
  });

  it("puts an OIDC host's paths under its issuer path", () => {
    expect(rewriteHostPath(map, "auth.example.com", "/.well-known/openid-configuration")).toBe(
      "/oidc/production/.well-known/openid-configuration",
    );
    expect(rewriteHostPath(map, "auth.example.com", "/token")).toBe("/oidc/production/token");
  });

  it("maps the root of a host onto the prefix itself", () => {
    expect(rewriteHostPath(map, "auth.example.com", "/")).toBe("/oidc/production");
  });

  it("ignores case, port and a trailing dot in the Host header", () => {
    expect(rewriteHostPath(map, "API.Sandbox.Example.COM:8443", "/v1/apps")).toBe("/api/sandbox/v1/apps");
    expect(rewriteHostPath(map, "auth.example.com.", "/jwks")).toBe("/oidc/production/jwks");
  });

  it("leaves hosts that are not configured alone", () => {
    expect(rewriteHostPath(map, "localhost:3000", "/v1/apps")).toBeUndefined();
    expect(rewriteHostPath(map, "127.0.0.1:3000", "/")).toBeUndefined();
    expect(rewriteHostPath(map, "evil.api.sandbox.example.com", "/v1/apps")).toBeUndefined();
    expect(rewriteHostPath(map, "sandbox.example.com", "/v1/apps")).toBeUndefined();
    expect(rewriteHostPath(map, null, "/v1/apps")).toBeUndefined();
    expect(rewriteHostPath(map, "", "/v1/apps")).toBeUndefined();
  });

  it("leaves a path that already carries the prefix as it is", () => {
    expect(rewriteHostPath(map, "api.sandbox.example.com", "/api/sandbox/v1/apps")).toBeUndefined();
    expect(rewriteHostPath(map, "api.sandbox.example.com", "/api/sandbox")).toBeUndefined();
  });

  it("keeps a dedicated host inside its own surface", () => {
    // a lookalike prefix is not the prefix
    expect(rewriteHostPath(map, "api.sandbox.example.com", "/api/sandboxes")).toBe(
      "/api/sandbox/api/sandboxes",
    );
    // another environment's path stays under this host's surface (and so finds no route)
    expect(rewriteHostPath(map, "api.sandbox.example.com", "/api/production/v1/apps")).toBe(
      "/api/sandbox/api/production/v1/apps",
    );
  });

  it("never rewrites framework assets", () => {
    expect(rewriteHostPath(map, "auth.example.com", "/_next/static/chunks/main.js")).toBeUndefined();
    expect(rewriteHostPath(map, "auth.example.com", "/_next")).toBeUndefined();
  });

  it("does nothing with an empty map", () => {
    expect(rewriteHostPath(parseHostMap("{}"), "api.sandbox.example.com", "/v1/apps")).toBeUndefined();
  });
});

describe("normalizeHost", () => {
  it("returns the bare lowercase host name", () => {
    expect(normalizeHost(" Auth.Example.com:443 ")).toBe("auth.example.com");
    expect(normalizeHost("localhost")).toBe("localhost");
  });

  it("rejects what is not a DNS name", () => {
    expect(normalizeHost("[::1]:3000")).toBeUndefined();
    expect(normalizeHost("exa mple.com")).toBeUndefined();
    expect(normalizeHost("-bad.example.com")).toBeUndefined();
    expect(normalizeHost(undefined)).toBeUndefined();
  });
});

describe("parseHostMap", () => {
  it("normalises the host names it reads", () => {
    const parsed = parseHostMap('{"API.Example.com.":"/api/production"}');
    expect([...parsed.entries()]).toEqual([["api.example.com", "/api/production"]]);
  });

  it("rejects values that are not JSON objects of path prefixes", () => {
    expect(() => parseHostMap("not json")).toThrow(/not valid JSON/);
    expect(() => parseHostMap('["api.example.com"]')).toThrow(/JSON object/);
    expect(() => parseHostMap('{"api.example.com":42}')).toThrow(/api\.example\.com/);
  });

  it.each(["api/sandbox", "/api/sandbox/", "/", "", "/api/../admin", "https://x.example.com/api"])(
    "rejects the prefix %j",
    (prefix) => {
      expect(() => parseHostMap(JSON.stringify({ "api.example.com": prefix }))).toThrow(/IDV_HOSTS/);
    },
  );

  it.each(["https://api.example.com", "api.example.com:443", "api.example.com/v1", "*.example.com"])(
    "rejects the host %j",
    (host) => {
      expect(() => parseHostMap(JSON.stringify({ [host]: "/api/sandbox" }))).toThrow(/IDV_HOSTS/);
    },
  );

  it("rejects a host listed twice under different spellings", () => {
    expect(() =>
      parseHostMap('{"api.example.com":"/api/sandbox","API.example.com":"/api/production"}'),
    ).toThrow(/listed twice/);
  });
});

describe("rewriteUnderPrefix", () => {
  it("puts a path under the prefix unless it is there already or a framework asset", () => {
    expect(rewriteUnderPrefix("/verify", "/")).toBe("/verify");
    expect(rewriteUnderPrefix("/verify", "/ver_1")).toBe("/verify/ver_1");
    expect(rewriteUnderPrefix("/verify", "/verify/ver_1")).toBeUndefined();
    expect(rewriteUnderPrefix("/oidc/sandbox", "/oidc/sandboxes")).toBe("/oidc/sandbox/oidc/sandboxes");
    expect(rewriteUnderPrefix("/oidc/sandbox", "/_next/static/x.js")).toBeUndefined();
    expect(rewriteUnderPrefix("/oidc/sandbox", "/icon.svg")).toBeUndefined();
    expect(rewriteUnderPrefix("/oidc/sandbox", "/favicon.ico")).toBeUndefined();
  });
});
