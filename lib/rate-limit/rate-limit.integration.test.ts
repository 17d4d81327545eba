/**
 * Abuse limits over the real route handlers and PostgreSQL: failed credential checks per source
 * address and per client, request rates of /oidc/{env}/auth and the hosted-page actions. Each
 * test sets small limits through the environment and uses addresses of its own
 * (X-Forwarded-For), so the counters of other tests never meet it.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { countRows } from "../db/kysely";
import { basic, bearer, call } from "../testing/router";
import { makeOperator } from "../testing/factories";
import { makeTokenApp } from "../testing/tokens";
import { makeVerifyingApp } from "../testing/verifications";
import { restoreEnvAfterEach, setEnv } from "../testing/env";

restoreEnvAfterEach();

let nextAddress = 1;
/** An address no other test of this file uses. */
function address(): string {
  return `203.0.113.${nextAddress++}`;
}

const from = (ip: string, headers: Record<string, string> = {}) => ({ ...headers, "x-forwarded-for": ip });

function retryAfter(headers: Headers): number {
  const value = Number(headers.get("retry-after"));
  expect(Number.isInteger(value)).toBe(true);
  return value;
}

const tokenForm = (code: string) => ({
  "content-type": "application/x-www-form-urlencoded",
  rawBody: `grant_type=authorization_code&code=${code}`,
});

async function postToken(path: string, ip: string, authorization: string) {
  const { rawBody, ...headers } = tokenForm("not-a-code");
  return call("POST", path, { headers: from(ip, { ...headers, authorization }), rawBody });
}

describe("failed credential checks", () => {
  it("blocks an address after its failed Basic attempts, even with the right credentials; other addresses are unaffected", async () => {
    setEnv({ IDV_CREDENTIAL_LIMIT_IP: "3" });
    const { app } = await makeTokenApp();
    const ip = address();
    for (let i = 0; i < 3; i++) {
      const res = await call("GET", "/api/sandbox/v1/providers", {
        headers: from(ip, basic(app.clientId, `cs_test_wrong${i}`)),
      });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("INVALID_CLIENT_CREDENTIALS");
    }
    const blocked = await call("GET", "/api/sandbox/v1/providers", {
      headers: from(ip, basic(app.clientId, app.clientSecret)),
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("RATE_LIMITED");
    const wait = retryAfter(blocked.headers);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(900);

    const elsewhere = await call("GET", "/api/sandbox/v1/providers", {
      headers: from(address(), basic(app.clientId, app.clientSecret)),
    });
    expect(elsewhere.status).toBe(200);
  });

  it("refuses a client's further failures from any address, but never its right secret", async () => {
    setEnv({ IDV_CREDENTIAL_LIMIT_CLIENT: "2" });
    const { app } = await makeTokenApp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("GET", "/api/sandbox/v1/providers", {
        headers: from(address(), basic(app.clientId, `cs_test_wrong${i}`)),
      });
      statuses.push(res.status);
      if (res.status === 429) expect(retryAfter(res.headers)).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([401, 401, 429]);
    const right = await call("GET", "/api/sandbox/v1/providers", {
      headers: from(address(), basic(app.clientId, app.clientSecret)),
    });
    expect(right.status).toBe(200);
  });

  it("blocks an address after failed workspace API keys and operator keys", async () => {
    setEnv({ IDV_CREDENTIAL_LIMIT_IP: "2" });
    const { ws } = await makeTokenApp();
    const ip = address();
    for (let i = 0; i < 2; i++) {
      const res = await call("GET", "/api/sandbox/v1/apps", {
        headers: from(ip, bearer(`sk_workspace_test_${"x".repeat(39)}${i}`)),
      });
      expect(res.status).toBe(401);
    }
    const blocked = await call("GET", "/api/sandbox/v1/apps", { headers: from(ip, bearer(ws.keys.sandbox)) });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("RATE_LIMITED");
    expect(retryAfter(blocked.headers)).toBeGreaterThan(0);

    const operator = await makeOperator();
    const opIp = address();
    for (let i = 0; i < 2; i++) {
      const res = await call("GET", "/api/sandbox/v1/operator/workspaces", {
        headers: from(opIp, bearer(`sk_operator_${"y".repeat(39)}${i}`)),
      });
      expect(res.status).toBe(401);
    }
    const opBlocked = await call("GET", "/api/sandbox/v1/operator/workspaces", {
      headers: from(opIp, bearer(operator.operatorKey)),
    });
    expect(opBlocked.status).toBe(429);
    expect(opBlocked.body.error.code).toBe("RATE_LIMITED");
  });

  it("answers repeated bad client secrets at the OP /token and the REST /token with 429 slow_down", async () => {
    setEnv({ IDV_CREDENTIAL_LIMIT_IP: "3" });
    const { app } = await makeTokenApp();
    for (const path of ["/oidc/sandbox/token", "/api/sandbox/token"]) {
      const ip = address();
      for (let i = 0; i < 3; i++) {
        const res = await postToken(path, ip, basic(app.clientId, `cs_test_wrong${i}`).authorization);
        expect(res.status).toBe(401);
        expect(res.body.error).toBe("invalid_client");
      }
      const res = await postToken(path, ip, basic(app.clientId, app.clientSecret).authorization);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ error: "slow_down" });
      expect(res.body.error_description).toMatch(/try again/i);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(retryAfter(res.headers)).toBeGreaterThan(0);
    }
  });

  it("answers repeated unknown access tokens at /userinfo with 429 slow_down", async () => {
    setEnv({ IDV_CREDENTIAL_LIMIT_IP: "3" });
    const ip = address();
    for (let i = 0; i < 3; i++) {
      const res = await call("GET", "/oidc/sandbox/userinfo", {
        headers: from(ip, bearer(`not-a-token-${i}`)),
      });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_token");
    }
    const res = await call("GET", "/oidc/sandbox/userinfo", { headers: from(ip, bearer("another")) });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: "slow_down" });
    expect(retryAfter(res.headers)).toBeGreaterThan(0);
  });

  it("writes nothing for successful requests: no counter row exists for a busy, well-behaved address", async () => {
    const { app } = await makeTokenApp();
    const ip = address();
    for (let i = 0; i < 20; i++) {
      const res = await call("GET", "/api/sandbox/v1/providers", {
        headers: from(ip, basic(app.clientId, app.clientSecret)),
      });
      expect(res.status).toBe(200);
    }
    const rows = await countRows(kysely().selectFrom("rateLimits").where("key", "like", `%${ip}%`));
    expect(rows).toBe(0);
  });
});

describe("request rates of unauthenticated writes", () => {
  it("answers a flood of /oidc/{env}/auth from one address with 429 on the error page", async () => {
    setEnv({ IDV_OIDC_AUTH_LIMIT_IP: "5" });
    const ip = address();
    const url = "/oidc/sandbox/auth?client_id=app_01ARZ3NDEKTSV4RRFFQ69G5FAV&response_type=code&scope=openid";
    for (let i = 0; i < 5; i++) {
      const res = await call("GET", url, { headers: from(ip) });
      expect(res.status).toBe(400);
    }
    const flooded = await call("GET", url, { headers: from(ip) });
    expect(flooded.status).toBe(429);
    expect(flooded.headers.get("location")).toBeNull();
    expect(flooded.text).toContain('data-error="temporarily_unavailable"');
    expect(retryAfter(flooded.headers)).toBeGreaterThan(0);
    expect(retryAfter(flooded.headers)).toBeLessThanOrEqual(60);

    const other = await call("GET", url, { headers: from(address()) });
    expect(other.status).toBe(400);
  });

  it("counts the peer's address, not the client-written left of X-Forwarded-For: a new first entry each time still reaches 429", async () => {
    setEnv({ IDV_OIDC_AUTH_LIMIT_IP: "5" });
    const ip = address();
    const url = "/oidc/sandbox/auth?client_id=app_01ARZ3NDEKTSV4RRFFQ69G5FAV&response_type=code&scope=openid";
    const forged = (i: number) => `192.0.2.${i}, ${ip}`;
    for (let i = 0; i < 5; i++) {
      expect((await call("GET", url, { headers: from(forged(i)) })).status).toBe(400);
    }
    const flooded = await call("GET", url, { headers: from(forged(99)) });
    expect(flooded.status).toBe(429);
    expect(flooded.text).toContain('data-error="temporarily_unavailable"');
  });

  it("limits hosted-page actions per address and per session, in the hosted JSON envelope", async () => {
    setEnv({ IDV_HOSTED_LIMIT_SESSION: "3" });
    const t = await makeVerifyingApp(["passport"]);
    const started = await t.start({ providerId: "passport" });
    expect(started.status).toBe(201);
    const id = started.body.verificationId as string;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call("GET", `/verify/${id}/qr?f=${i}`, { headers: from(address()) });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toMatchObject({ error: { code: "RATE_LIMITED" } });
        expect(retryAfter(res.headers)).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);

    setEnv({ IDV_HOSTED_LIMIT_IP: "2", IDV_HOSTED_LIMIT_SESSION: "1000" });
    const ip = address();
    const other = await t.start({ providerId: "passport" });
    const cancels: number[] = [];
    for (const target of [id, other.body.verificationId as string, id]) {
      const res = await call("POST", `/verify/${target}/cancel`, {
        headers: from(ip, { "sec-fetch-site": "same-origin" }),
      });
      cancels.push(res.status);
      if (res.status === 429) expect(res.body.error.code).toBe("RATE_LIMITED");
    }
    expect(cancels).toEqual([303, 303, 429]);
  });
});
