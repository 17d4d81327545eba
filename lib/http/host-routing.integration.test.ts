/**
 * The host decision on its own (proxy.integration.test.ts drives it through the proxy and the
 * route handlers): dedicated hosts, an active custom domain for its app only, the service's own
 * host as addressed, and no answer at all when the custom-domain lookup cannot reach the database.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { makeActiveCustomDomain, setupTestDns } from "../testing/custom-domains";
import { makeVerifyingApp } from "../testing/verifications";
import { routeByHost } from "./host-routing";

const dns = setupTestDns();
let clientId: string;
let names: { web: string; oidc: string };

beforeAll(async () => {
  const t = await makeVerifyingApp(["passport"]);
  clientId = t.app.clientId;
  names = await makeActiveCustomDomain(dns(), t.ws.keys.sandbox, "sandbox", clientId);
});

afterEach(() => {
  delete process.env.IDV_HOSTS;
});

describe("routeByHost", () => {
  it("serves the service's own host as addressed, for every app", async () => {
    expect(await routeByHost("localhost:3000", "/verify/x")).toEqual({ kind: "serve" });
    expect(await routeByHost("127.0.0.1:3000", "/api/sandbox/v1/apps")).toEqual({ kind: "serve" });
  });

  it("serves an active custom domain from its surface, for its app only", async () => {
    expect(await routeByHost(names.web, "/verify/ver_1")).toEqual({
      kind: "serve",
      pathname: undefined,
      servedApp: clientId,
    });
    const oidc = await routeByHost(names.oidc, "/auth");
    expect(oidc).toEqual({ kind: "serve", pathname: "/oidc/sandbox/auth", servedApp: clientId });
    // an unknown name under a real-looking domain is served as addressed, with no app
    expect(await routeByHost("unknown.example.org", "/")).toEqual({ kind: "serve" });
  });

  it("serves a dedicated host of IDV_HOSTS from its prefix", async () => {
    process.env.IDV_HOSTS = JSON.stringify({ "api.example.net": "/api/production" });
    expect(await routeByHost("api.example.net", "/v1/apps")).toEqual({
      kind: "serve",
      pathname: "/api/production/v1/apps",
    });
  });

  it("serves nothing when the custom-domain lookup cannot reach the database", async () => {
    const down = createDb("postgresql://postgres:x@127.0.0.1:9/none", 1);
    try {
      expect(await routeByHost("shop-never-cached.example.org", "/", () => down)).toEqual({
        kind: "unavailable",
      });
    } finally {
      await down.destroy();
    }
  });
});
