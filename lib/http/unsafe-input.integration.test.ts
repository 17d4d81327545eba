/**
 * Input PostgreSQL cannot store (U+0000 in text, unpaired surrogates in JSON) and ids that cannot
 * exist are refused at the boundary with each surface's own error, never a 500 (issue 12, item 6).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkSignInLimits, signInWithPassword } from "@/lib/auth/sign-in";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { ApiError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { flushRequestLog } from "@/lib/request-log/writer";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";
import { activateProviders } from "@/lib/testing/verifications";

const REDIRECT = "https://rp.example.com/cb";
const NUL = "\u0000";
const LONE = "\ud800";

type Ws = Awaited<ReturnType<typeof makeWorkspace>>;
type App = Awaited<ReturnType<typeof makeApp>>;
let ws: Ws;
let app: App;

beforeAll(async () => {
  ws = await makeWorkspace();
  app = await makeApp(ws.keys.sandbox);
  await activateProviders(app.clientId, ["passport"]);
  const patched = await call("PATCH", `/api/sandbox/v1/apps/${app.clientId}`, {
    headers: bearer(ws.keys.sandbox),
    body: { redirectUris: [REDIRECT] },
  });
  expect(patched.status).toBe(200);
});

const form = (fields: Record<string, string>) => ({
  "content-type": "application/x-www-form-urlencoded",
  body: new URLSearchParams(fields).toString(),
});

function expectEnvelope(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({
    error: { code, message: expect.any(String), requestId: expect.any(String) },
  });
}

function expectDetail(res: { body: { error: { details?: { path: string }[] } } }, path: string) {
  expect(res.body.error.details?.map((d) => d.path)).toContain(path);
}

describe("Basic credentials with a NUL in the username", () => {
  const creds = () => basic(`app_${NUL}x`, "cs_test_whatever");

  it("are 401 on the App API", async () => {
    const res = await call("GET", "/api/sandbox/v1/providers", { headers: creds() });
    expectEnvelope(res, 401, "INVALID_CLIENT_CREDENTIALS");
  });

  it("are 401 invalid_client at the REST /token and the OP /token", async () => {
    for (const path of ["/api/sandbox/token", "/oidc/sandbox/token"]) {
      const f = form({ grant_type: "authorization_code", code: "abc", redirect_uri: REDIRECT });
      const res = await call("POST", path, {
        headers: { ...creds(), "content-type": f["content-type"] },
        rawBody: f.body,
      });
      expect(res.status, path).toBe(401);
      expect(res.body.error, path).toBe("invalid_client");
    }
  });

  it("a percent-encoded NUL inside Basic (RFC 6749 form-encoding) is refused the same way", async () => {
    const header = `Basic ${Buffer.from("app_%00x:cs_test_x").toString("base64")}`;
    const res = await call("GET", "/api/sandbox/v1/providers", { headers: { authorization: header } });
    expectEnvelope(res, 401, "INVALID_CLIENT_CREDENTIALS");
  });

  it("a clientId that is not an app id at all is 401 without a lookup error", async () => {
    const res = await call("GET", "/api/sandbox/v1/providers", {
      headers: basic(`${app.clientId}${LONE}`, app.clientSecret),
    });
    expectEnvelope(res, 401, "INVALID_CLIENT_CREDENTIALS");
  });
});

describe("OpenID Provider parameters", () => {
  const authorizationRequests = () =>
    countRows(kysely().selectFrom("oidcAuthorizationRequests").where("appId", "=", app.clientId));

  it("client_id=app_%00 at /auth is the error page (400), not a 500", async () => {
    const res = await call(
      "GET",
      `/oidc/sandbox/auth?client_id=app_%00&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid`,
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain('data-error="invalid_request"');
  });

  it("a NUL in state at /auth (known client) is refused on the error page, nothing stored", async () => {
    const before = await authorizationRequests();
    const q = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid",
      provider: "passport",
      state: `s${NUL}`,
    });
    const res = await call("GET", `/oidc/sandbox/auth?${q.toString()}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain("state");
    expect(await authorizationRequests()).toBe(before);
  });

  it("a NUL in a POSTed /auth form is refused the same way", async () => {
    const f = form({ client_id: app.clientId, redirect_uri: `${REDIRECT}${NUL}`, response_type: "code" });
    const res = await call("POST", "/oidc/sandbox/auth", {
      headers: { "content-type": f["content-type"] },
      rawBody: f.body,
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain("redirect_uri");
  });

  it("client_id=app_%00 in the /token body is an OAuth error, not a 500", async () => {
    for (const path of ["/oidc/sandbox/token", "/api/sandbox/token"]) {
      const res = await call("POST", path, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        rawBody: "grant_type=authorization_code&code=abc&client_id=app_%00&client_secret=cs_test_x",
      });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ error: "invalid_request" });
      expect(res.body.error_description, path).toContain("client_id");
    }
  });

  it("a JSON /token body with a lone surrogate is an OAuth error", async () => {
    const res = await call("POST", "/api/sandbox/token", {
      headers: { "content-type": "application/json" },
      rawBody: `{"grant_type":"authorization_code","code":"abc","client_id":"app_\\ud800","client_secret":"x"}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request" });
  });

  it("/resume/ver_%00 is the error page (400), not a 500", async () => {
    const res = await call("GET", "/oidc/sandbox/resume/ver_%00");
    expect(res.status).toBe(400);
    expect(res.text).toContain("unknown");
  });
});

describe("REST path ids", () => {
  it("an id that does not have its resource's format is 404 RESOURCE_NOT_FOUND", async () => {
    const key = bearer(ws.keys.sandbox);
    const creds = basic(app.clientId, app.clientSecret);
    const cases: [string, string, Record<string, string>][] = [
      ["GET", "/api/sandbox/v1/apps/app_%00", key],
      ["PATCH", `/api/sandbox/v1/apps/app_%00x`, key],
      ["GET", `/api/sandbox/v1/apps/${app.clientId}/workflows/wf_%00`, key],
      ["GET", `/api/sandbox/v1/apps/${app.clientId}/webhook-deliveries/dlv_%00`, key],
      ["DELETE", "/api/sandbox/v1/api-keys/key_%00", key],
      ["GET", "/api/sandbox/v1/verifications/ver_%00", creds],
      ["DELETE", "/api/sandbox/v1/verifications/ver_%00", creds],
      ["GET", `/api/sandbox/v1/verifications/${newId("ver")}x`, creds],
      ["GET", "/api/sandbox/v1/verifications/ver_..%2F..", creds],
    ];
    for (const [method, path, headers] of cases) {
      const res = await call(method, path, { headers, ...(method === "PATCH" ? { body: {} } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code, `${method} ${path}`).toBe("RESOURCE_NOT_FOUND");
    }
  });

  it("credentials are still checked first (401 before the id's 404)", async () => {
    const res = await call("GET", "/api/sandbox/v1/apps/app_%00");
    expectEnvelope(res, 401, "INVALID_API_KEY");
  });

  it("one such request does not cost other requests their request-log rows", async () => {
    await call("GET", "/api/sandbox/v1/apps/app_%00", { headers: bearer(ws.keys.sandbox) });
    const ok = await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(ok.status).toBe(200);
    await flushRequestLog();
    const id = ok.headers.get("x-request-id")!;
    const row = await kysely()
      .selectFrom("apiRequestLogs")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    expect(row?.id).toBe(id);
  });
});

describe("REST bodies and queries", () => {
  it("a NUL or a lone surrogate in any body string is 400 VALIDATION_ERROR naming the field", async () => {
    const key = bearer(ws.keys.sandbox);
    const creds = basic(app.clientId, app.clientSecret);
    const cases: [string, string, Record<string, string>, unknown, string][] = [
      ["POST", "/api/sandbox/v1/apps", key, { name: `a${NUL}b` }, "name"],
      ["POST", "/api/sandbox/v1/apps", key, { name: `a${LONE}b` }, "name"],
      ["POST", "/api/sandbox/v1/apps/batch", key, { apps: [{ name: `x${NUL}` }] }, "apps[0].name"],
      [
        "PATCH",
        `/api/sandbox/v1/apps/${app.clientId}`,
        key,
        { redirectUris: [REDIRECT, `https://rp.example.com/${NUL}`] },
        "redirectUris[1]",
      ],
      ["POST", "/api/sandbox/v1/api-keys", key, { name: `k${NUL}` }, "name"],
      ["POST", "/api/sandbox/v1/verifications", creds, { providerId: "passport", state: `s${NUL}` }, "state"],
      [
        "POST",
        "/api/sandbox/v1/verifications",
        creds,
        { providerId: "passport", redirect_uri: `${REDIRECT}${NUL}` },
        "redirect_uri",
      ],
      [
        "POST",
        "/api/sandbox/v1/verifications",
        creds,
        { providerId: "passport", matchData: { [`given${NUL}name`]: "x" } },
        "matchData.given\\u0000name",
      ],
      [
        "POST",
        `/api/sandbox/v1/apps/${app.clientId}/activation`,
        key,
        {
          providers: {
            nl_digid: {
              legalCompanyName: `Example${NUL} GmbH`,
              registrationNumber: "HRB 1",
              serviceDescription: "Accounts",
              displayName: "Example",
              contactEmail: "a@example.com",
              userDataLevel: "basic",
              privacyPolicyUrl: "https://example.com/privacy",
            },
          },
        },
        "providers.nl_digid.legalCompanyName",
      ],
      [
        "POST",
        `/api/sandbox/v1/apps/${app.clientId}/activation`,
        key,
        {
          providers: {
            nl_digid: {
              legalCompanyName: "Example GmbH",
              registrationNumber: "HRB 1",
              serviceDescription: `Accounts ${LONE}`,
              displayName: "Example",
              contactEmail: "a@example.com",
              userDataLevel: "basic",
              privacyPolicyUrl: "https://example.com/privacy",
            },
          },
        },
        "providers.nl_digid.serviceDescription",
      ],
    ];
    for (const [method, path, headers, body, field] of cases) {
      const res = await call(method, path, { headers, body });
      expectEnvelope(res, 400, "VALIDATION_ERROR");
      expectDetail(res, field);
      expect(res.body.error.message).not.toContain(NUL);
    }
  });

  it("a NUL in a query parameter is 400 VALIDATION_ERROR naming it", async () => {
    const key = bearer(ws.keys.sandbox);
    const cases: [string, string][] = [
      ["/api/sandbox/v1/apps?search=a%00", "search"],
      ["/api/sandbox/v1/audit-events?action=a%00", "action"],
      ["/api/sandbox/v1/request-logs?path=%00", "path"],
    ];
    for (const [path, field] of cases) {
      const res = await call("GET", path, { headers: key });
      expectEnvelope(res, 400, "VALIDATION_ERROR");
      expectDetail(res, field);
    }
  });
});

describe("console sign-in (the credentials next-auth checks)", () => {
  const emails = [`a${NUL}@example.test`, `${"x".repeat(300)}@example.test`, `${LONE}@example.test`];

  it("the rate-limit check before next-auth takes any email, not a 500", async () => {
    for (const email of emails) {
      await expect(checkSignInLimits(email, "203.0.113.7")).resolves.toBeUndefined();
    }
  });

  it("a sign-in with such an email is the usual 401, and its failures are counted", async () => {
    for (const email of emails) {
      const error = await signInWithPassword(kysely(), { email, password: "wrong", ip: "203.0.113.8" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("INVALID_CREDENTIALS");
    }
  });
});
