/**
 * POST /v1/operator/connections/{providerId}/check against a real OpenID Provider (oidc-provider
 * on loopback, reached through the SSRF guard, which this file opens to private networks as the
 * webhook tests do): what it finds, and the connection's state it records.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opSettings, putTestConnection, testOperatorKey } from "../testing/connections";
import { bearer, call } from "../testing/router";
import { startUpstreamOp, type TUpstreamOp } from "../testing/upstream-oidc";

process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";

let op: TUpstreamOp;

beforeAll(async () => {
  op = await startUpstreamOp({ accounts: {} });
});

afterAll(async () => {
  await op.close();
});

async function check(env: "sandbox" | "production", providerId: string) {
  return call("POST", `/api/${env}/v1/operator/connections/${providerId}/check`, {
    headers: bearer(await testOperatorKey()),
  });
}

async function state(env: "sandbox" | "production", providerId: string) {
  const res = await call("GET", `/api/${env}/v1/operator/connections/${providerId}`, {
    headers: bearer(await testOperatorKey()),
  });
  return res.body as { state: string; lastError: string | null; lastSuccessAt: string | null };
}

describe("checking an oidc connection", () => {
  it("fetches discovery and JWKS and answers what it found, then shows connected", async () => {
    await putTestConnection("production", "se_bankid", { adapter: "oidc", settings: opSettings(op) });
    const before = op.requests.length;
    const res = await check("production", "se_bankid");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      providerId: "se_bankid",
      ok: true,
      issuer: op.issuer,
      discoveredIssuer: op.issuer,
      issuerMatches: true,
      endpoints: {
        authorization: `${op.issuer}/auth`,
        token: `${op.issuer}/token`,
        userinfo: `${op.issuer}/me`,
        jwks: `${op.issuer}/jwks`,
      },
      error: null,
    });
    expect(res.body.keyCount).toBeGreaterThanOrEqual(1);
    expect(res.body.idTokenSigningAlgorithms).toContain("RS256");
    expect(res.body.tokenEndpointAuthMethods).toContain("client_secret_basic");
    expect(res.body.warnings).toEqual(
      expect.arrayContaining(["allowInsecureRequests is set: for local testing only"]),
    );
    // discovery and keys only: no authorization, token or userinfo request
    expect(op.requests.slice(before)).toEqual(["GET /.well-known/openid-configuration", "GET /jwks"]);
    const after = await state("production", "se_bankid");
    expect(after.state).toBe("connected");
    expect(after.lastSuccessAt).toEqual(expect.any(String));
  });

  it("reports an issuer that does not match its discovery document, and the connection shows failing", async () => {
    await putTestConnection("production", "no_bankid", {
      adapter: "oidc",
      settings: opSettings(op, { issuer: `${op.issuer}/` }),
    });
    const res = await check("production", "no_bankid");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, issuerMatches: false, discoveredIssuer: op.issuer });
    expect(res.body.error).toMatch(/names issuer/);
    const after = await state("production", "no_bankid");
    expect(after).toMatchObject({ state: "failing", lastError: res.body.error });

    // fixed, then checked again: connected
    await putTestConnection("production", "no_bankid", { adapter: "oidc", settings: opSettings(op) });
    expect((await check("production", "no_bankid")).body.ok).toBe(true);
    expect((await state("production", "no_bankid")).state).toBe("connected");
  });

  it("reports an issuer without discovery", async () => {
    await putTestConnection("sandbox", "fi_ftn", {
      adapter: "oidc",
      settings: opSettings(op, { issuer: `${op.issuer}/nothing-here` }),
    });
    const res = await check("sandbox", "fi_ftn");
    expect(res.body).toMatchObject({ ok: false, keyCount: 0 });
    expect(res.body.error).toMatch(/HTTP 404/);
    expect((await state("sandbox", "fi_ftn")).state).toBe("failing");
  });
});
