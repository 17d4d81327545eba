import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { makeActiveCustomDomain, setupTestDns } from "../testing/custom-domains";
import { makeApp, makeWorkspace } from "../testing/factories";
import { bearer, call } from "../testing/router";
import {
  CACHE_TTL_MS,
  customDomainPath,
  findActiveCustomDomainHost,
  resolveCustomDomainHost,
} from "./routing";

const dns = setupTestDns();

/** Sets the status of app `appId`'s custom domain behind the service's back (another instance). */
async function setStatus(appId: string, status: string): Promise<void> {
  await kysely()
    .updateTable("customDomains")
    .set({ status, updatedAt: new Date() })
    .where("appId", "=", appId)
    .execute();
}

describe("findActiveCustomDomainHost", () => {
  it("finds both hosts of an active domain with the app's environment", async () => {
    const ws = await makeWorkspace();
    const sandboxApp = await makeApp(ws.keys.sandbox);
    const productionApp = await makeApp(ws.keys.production, "production");
    const s = await makeActiveCustomDomain(dns(), ws.keys.sandbox, "sandbox", sandboxApp.clientId);
    const p = await makeActiveCustomDomain(dns(), ws.keys.production, "production", productionApp.clientId);
    const db = kysely();

    // the route names the app: the only one served on the domain (served-app.ts)
    const sandbox = { environment: "sandbox", appId: sandboxApp.clientId };
    expect(await findActiveCustomDomainHost(db, s.web)).toEqual({ kind: "web", ...sandbox });
    expect(await findActiveCustomDomainHost(db, s.oidc)).toEqual({ kind: "oidc", ...sandbox });
    const route = await findActiveCustomDomainHost(db, p.oidc);
    expect(route).toEqual({ kind: "oidc", environment: "production", appId: productionApp.clientId });
    // the request paths the proxy then serves
    expect(customDomainPath(route!, "/.well-known/openid-configuration")).toBe(
      "/oidc/production/.well-known/openid-configuration",
    );
    const web = await findActiveCustomDomainHost(db, p.web);
    expect(customDomainPath(web!, "/verify/ver_123")).toBeUndefined();

    expect(await findActiveCustomDomainHost(db, `x.${s.web}`)).toBeUndefined();
    expect(await findActiveCustomDomainHost(db, s.base)).toBeUndefined();
  });

  it("ignores domains that are not active and apps that are deleted", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const names = await makeActiveCustomDomain(dns(), ws.keys.sandbox, "sandbox", app.clientId);
    const db = kysely();
    await setStatus(app.clientId, "invalid");
    expect(await findActiveCustomDomainHost(db, names.web)).toBeUndefined();
    await setStatus(app.clientId, "active");
    expect(await findActiveCustomDomainHost(db, names.web)).toBeDefined();
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.sandbox) });
    expect(await findActiveCustomDomainHost(db, names.web)).toBeUndefined();
  });
});

describe("resolveCustomDomainHost", () => {
  it("caches answers, misses included, and forgets this process's own changes at once", async () => {
    const ws = await makeWorkspace();
    const key = ws.keys.sandbox;
    const app = await makeApp(key);
    const names = await makeActiveCustomDomain(dns(), key, "sandbox", app.clientId);
    const db = kysely();
    const now = Date.now();
    expect(await resolveCustomDomainHost(db, names.web, now)).toEqual({
      kind: "web",
      environment: "sandbox",
      appId: app.clientId,
    });

    // a change made elsewhere (another instance) shows once the entry expires
    await setStatus(app.clientId, "invalid");
    expect(await resolveCustomDomainHost(db, names.web, now + 1000)).toBeDefined();
    expect(await resolveCustomDomainHost(db, names.web, now + CACHE_TTL_MS + 1)).toBeUndefined();
    // the miss is cached too
    await setStatus(app.clientId, "active");
    const later = now + CACHE_TTL_MS + 2;
    expect(await resolveCustomDomainHost(db, names.web, later)).toBeUndefined();

    // a verify or delete through the API drops the cached entries of its hosts
    await call("POST", `/api/sandbox/v1/apps/${app.clientId}/custom-domain/verify`, { headers: bearer(key) });
    expect(await resolveCustomDomainHost(db, names.web, later)).toEqual({
      kind: "web",
      environment: "sandbox",
      appId: app.clientId,
    });
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}/custom-domain`, { headers: bearer(key) });
    expect(await resolveCustomDomainHost(db, names.web, later)).toBeUndefined();
  });
});
