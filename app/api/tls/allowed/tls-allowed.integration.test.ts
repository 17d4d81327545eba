import { describe, expect, it } from "vitest";
import { makeActiveCustomDomain, uniqueDomain, setupTestDns } from "@/lib/testing/custom-domains";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

const dns = setupTestDns();
const ask = (domain?: string) =>
  call(
    "GET",
    domain === undefined ? "/api/tls/allowed" : `/api/tls/allowed?domain=${encodeURIComponent(domain)}`,
  );

describe("GET /api/tls/allowed", () => {
  it("allows both hosts of an active custom domain, in any spelling of the name", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.production, "production");
    const names = await makeActiveCustomDomain(dns(), ws.keys.production, "production", app.clientId);
    for (const host of [
      names.web,
      names.oidc,
      names.web.toUpperCase(),
      `${names.oidc}.`,
      `${names.web}:443`,
    ]) {
      const res = await ask(host);
      expect(res.status, host).toBe(200);
      expect(res.body).toEqual({ allowed: true });
    }
    expect((await ask(names.base)).status).toBe(404);
    expect((await ask(`x.${names.web}`)).status).toBe(404);
  });

  it("refuses hosts of domains that are not active, deleted domains and deleted apps", async () => {
    const ws = await makeWorkspace();
    const key = ws.keys.sandbox;
    const pending = await makeApp(key);
    const names = uniqueDomain();
    await call("PUT", `/api/sandbox/v1/apps/${pending.clientId}/custom-domain`, {
      headers: bearer(key),
      body: { webDomain: names.web, oidcDomain: names.oidc },
    });
    const res = await ask(names.web);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ allowed: false });

    const removed = await makeApp(key);
    const removedNames = await makeActiveCustomDomain(dns(), key, "sandbox", removed.clientId);
    expect((await ask(removedNames.web)).status).toBe(200);
    await call("DELETE", `/api/sandbox/v1/apps/${removed.clientId}/custom-domain`, { headers: bearer(key) });
    expect((await ask(removedNames.web)).status).toBe(404);

    const gone = await makeApp(key);
    const goneNames = await makeActiveCustomDomain(dns(), key, "sandbox", gone.clientId);
    await call("DELETE", `/api/sandbox/v1/apps/${gone.clientId}`, { headers: bearer(key) });
    expect((await ask(goneNames.oidc)).status).toBe(404);
  });

  it("refuses unknown hosts, IP addresses and junk, and needs the domain parameter", async () => {
    for (const domain of ["unknown.example.com", "127.0.0.1", "not a host", "localhost"]) {
      expect((await ask(domain)).status, domain).toBe(404);
    }
    const missing = await ask();
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe("domain");
    expect((await ask("")).status).toBe(400);
  });
});
