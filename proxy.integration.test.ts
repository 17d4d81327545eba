/**
 * Issue 12, item 12: a custom domain serves only its own app. Requests go through the real proxy
 * and then the route handlers, chained the way Next.js chains them
 * (next/dist/server/lib/router-utils/resolve-routes): the proxy's rewrite (`x-middleware-rewrite`)
 * picks the path; when it overrides request headers (`x-middleware-override-headers` +
 * `x-middleware-request-<name>`) the handler gets exactly those headers, every other header is
 * dropped; a response of the proxy's own (no rewrite, no next) is the answer. Pages are not
 * rendered (lib/testing/router.ts routes `route.ts` handlers only); they use the same check
 * (app/(hosted)/_lib/page-data.ts → servesVerification).
 */
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { SERVED_APP_HEADER } from "@/lib/domains/served-app";
import { makeActiveCustomDomain, setupTestDns } from "@/lib/testing/custom-domains";
import { basic, bearer, call, dispatch, type CallResult } from "@/lib/testing/router";
import { makeVerifyingApp } from "@/lib/testing/verifications";
import { proxy } from "./proxy";

interface TProxiedCall extends CallResult {
  /** the path and headers the route handler was called with (undefined: the proxy answered) */
  handled?: { pathname: string; headers: Headers };
}

/** `url` is absolute: its host is the Host header the proxy routes by. */
async function callThroughProxy(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<TProxiedCall> {
  const incoming = new Headers(options.headers);
  incoming.set("host", new URL(url).host);
  const init = { method, headers: incoming, ...(options.body !== undefined ? { body: options.body } : {}) };
  const routed = await proxy(new NextRequest(url, init));

  let response: Response = routed;
  let handled: TProxiedCall["handled"];
  const rewrite = routed.headers.get("x-middleware-rewrite");
  if (rewrite || routed.headers.get("x-middleware-next")) {
    const target = new URL(rewrite ?? url);
    const headers = new Headers(incoming);
    const override = routed.headers.get("x-middleware-override-headers");
    if (override !== null) {
      const kept = new Set(
        override
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean),
      );
      for (const name of [...headers.keys()]) if (!kept.has(name)) headers.delete(name);
      for (const name of kept) {
        const value = routed.headers.get(`x-middleware-request-${name}`);
        if (value === null) headers.delete(name);
        else headers.set(name, value);
      }
    }
    handled = { pathname: target.pathname, headers };
    response = await dispatch(
      new Request(target, {
        method,
        headers,
        ...(options.body !== undefined ? { body: options.body } : {}),
      }),
    );
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the text as it is
  }
  return { status: response.status, headers: response.headers, body, text, ...(handled ? { handled } : {}) };
}

const dns = setupTestDns();
const REDIRECT = "https://rp.example.com/cb";
const OWN_HOST = "http://localhost:3000";

async function oidcApp() {
  const t = await makeVerifyingApp(["passport"]);
  const patched = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
    headers: bearer(t.ws.keys.sandbox),
    body: { redirectUris: [REDIRECT] },
  });
  expect(patched.status).toBe(200);
  return t;
}

function authQuery(clientId: string) {
  return new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "openid",
    state: "s",
    provider: "passport",
    // PKCE (the RFC 7636 example challenge): required for new apps
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  }).toString();
}

let owner: Awaited<ReturnType<typeof oidcApp>>;
let other: Awaited<ReturnType<typeof oidcApp>>;
let web: string;
let oidc: string;
let ownSession: string;
let otherSession: string;

beforeAll(async () => {
  owner = await oidcApp();
  other = await oidcApp();
  const names = await makeActiveCustomDomain(dns(), owner.ws.keys.sandbox, "sandbox", owner.app.clientId);
  web = `http://${names.web}`;
  oidc = `http://${names.oidc}`;
  ownSession = (await owner.start({ providerId: "passport" })).body.verificationId;
  otherSession = (await other.start({ providerId: "passport" })).body.verificationId;
});

describe("the hosted pages on a custom web domain", () => {
  it("serve the domain's app's sessions, and nothing of another app (404 as for an unknown id)", async () => {
    const own = await callThroughProxy("GET", `${web}/verify/${ownSession}/status`);
    expect(own.status).toBe(200);
    expect(own.body.status).toBe("awaiting_user_action");
    // the proxy tells the route which app the host serves
    expect(own.handled!.headers.get(SERVED_APP_HEADER)).toBe(owner.app.clientId);

    const foreign = await callThroughProxy("GET", `${web}/verify/${otherSession}/status`);
    expect(foreign.status).toBe(404);
    const unknown = await callThroughProxy("GET", `${web}/verify/ver_01HZZZZZZZZZZZZZZZZZZZZZZZ/status`);
    expect(foreign.body).toEqual(unknown.body);

    for (const path of ["qr", "start"]) {
      expect((await callThroughProxy("GET", `${web}/verify/${otherSession}/${path}`)).status).toBe(404);
    }
    const cancel = await callThroughProxy("POST", `${web}/verify/${otherSession}/cancel`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(cancel.status).toBe(404);
    const wallet = await callThroughProxy("GET", `${web}/verify/${otherSession}/wallet`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(wallet.status).toBe(404);
    expect((await other.status(otherSession)).body.status).toBe("awaiting_user_action");

    // the service's own host serves every app's sessions, as before
    expect((await callThroughProxy("GET", `${OWN_HOST}/verify/${otherSession}/status`)).status).toBe(200);
  });

  it("serve the sandbox simulator as addressed, for the domain's app's sessions only", async () => {
    const form = new URLSearchParams({ outcome: "success", flow: "qr" }).toString();
    const act = (session: string) =>
      callThroughProxy("POST", `${web}/sandbox/verify/${session}/act`, {
        headers: {
          "sec-fetch-site": "same-origin",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: form,
      });
    const foreign = await act(otherSession);
    expect(foreign.handled!.pathname).toBe(`/sandbox/verify/${otherSession}/act`);
    expect(foreign.status).toBe(404);
    expect((await other.status(otherSession)).body.status).toBe("awaiting_user_action");

    const started = (await owner.start({ providerId: "passport" })).body.verificationId;
    const own = await act(started);
    expect(own.status).toBe(303);
    expect(own.headers.get("location")).toContain(`/sandbox/verify/${started}`);
    expect((await owner.status(started)).body.status).toBe("completed");
  });

  it("cannot be told another app by the client: the proxy drops and replaces the header", async () => {
    const forged = { [SERVED_APP_HEADER]: other.app.clientId };
    const onDomain = await callThroughProxy("GET", `${web}/verify/${otherSession}/status`, {
      headers: forged,
    });
    expect(onDomain.status).toBe(404);
    expect(onDomain.handled!.headers.get(SERVED_APP_HEADER)).toBe(owner.app.clientId);

    const onOwnHost = await callThroughProxy("GET", `${OWN_HOST}/verify/${ownSession}/status`, {
      headers: { [SERVED_APP_HEADER]: other.app.clientId },
    });
    expect(onOwnHost.status).toBe(200);
    expect(onOwnHost.handled!.headers.get(SERVED_APP_HEADER)).toBeNull();
  });
});

describe("the OpenID Provider on a custom OIDC domain", () => {
  it("refuses another app's client_id at /auth with the error page (404, no redirect)", async () => {
    const foreign = await callThroughProxy("GET", `${oidc}/auth?${authQuery(other.app.clientId)}`);
    expect(foreign.handled!.pathname).toBe("/oidc/sandbox/auth");
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("location")).toBeNull();
    expect(foreign.text).toContain("This sign-in cannot continue");
    expect(foreign.text).toContain(`client_id: no client &quot;${other.app.clientId}&quot; at this address`);
    const unknown = await callThroughProxy(
      "GET",
      `${oidc}/auth?${authQuery("app_01HZZZZZZZZZZZZZZZZZZZZZZZ")}`,
    );
    expect(unknown.status).toBe(404);
    // nothing was stored for the refused request
    expect(
      await countRows(kysely().selectFrom("verifications").where("appId", "=", other.app.clientId)),
    ).toBe(1);

    // the domain's own client signs in; the other client still can on the service's own host
    const own = await callThroughProxy("GET", `${oidc}/auth?${authQuery(owner.app.clientId)}`);
    expect(own.status).toBe(303);
    expect(own.headers.get("location")).toMatch(/\/verify\/ver_/);
    const elsewhere = await callThroughProxy(
      "GET",
      `${OWN_HOST}/oidc/sandbox/auth?${authQuery(other.app.clientId)}`,
    );
    expect(elsewhere.status).toBe(303);
  });

  it("answers /resume only for the domain's app's sign-ins", async () => {
    // the other app's sign-in, started on the service's own host
    const started = await callThroughProxy(
      "GET",
      `${OWN_HOST}/oidc/sandbox/auth?${authQuery(other.app.clientId)}`,
    );
    expect(started.status).toBe(303);
    const request = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .selectAll()
      .where("appId", "=", other.app.clientId)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    const cookie = (started.headers.get("set-cookie") ?? "").split(";")[0]!;
    const foreign = await callThroughProxy("GET", `${oidc}/resume/${request.resumeToken}`, {
      headers: { cookie },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("location")).toBeNull();
    // the same sign-in on the service's own host is answered by the OP's usual rules
    const onOwnHost = await callThroughProxy(
      "GET",
      `${OWN_HOST}/oidc/sandbox/resume/${request.resumeToken}`,
      {
        headers: { cookie },
      },
    );
    expect(onOwnHost.status).not.toBe(404);
  });

  it("refuses another app's credentials at /token and its access tokens at /userinfo", async () => {
    const form = new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT });
    const tokenRequest = {
      headers: {
        ...basic(other.app.clientId, other.app.clientSecret),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form.toString(),
    };
    const foreign = await callThroughProxy("POST", `${oidc}/token`, tokenRequest);
    expect(foreign.status).toBe(401);
    expect(foreign.body.error).toBe("invalid_client");
    // on the service's own host the client authenticates and only the made-up code is wrong
    const onOwnHost = await callThroughProxy("POST", `${OWN_HOST}/oidc/sandbox/token`, tokenRequest);
    expect(onOwnHost.status).toBe(400);
    expect(onOwnHost.body.error).toBe("invalid_grant");

    // an access token of the other app for a completed session
    const { verificationId } = (await other.start({ providerId: "passport" })).body;
    await other.simulate(verificationId, { outcome: "success", identity: "passport-anna-eriksson" });
    const token = `tok-${verificationId}`;
    await kysely()
      .insertInto("oidcAccessTokens")
      .values({
        tokenHash: sha256Hex(token),
        appId: other.app.clientId,
        environment: "sandbox",
        verificationId,
        codeHash: sha256Hex(`code-${verificationId}`),
        scope: "openid",
        expiresAt: new Date(Date.now() + 600_000),
      })
      .execute();
    const info = await callThroughProxy("GET", `${OWN_HOST}/oidc/sandbox/userinfo`, {
      headers: bearer(token),
    });
    expect(info.status).toBe(200);
    const refused = await callThroughProxy("GET", `${oidc}/userinfo`, { headers: bearer(token) });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("invalid_token");
  });
});

describe("early refusals and page headers (issue 23, items 7, 8 and 10)", () => {
  it("answers a path that does not decode with 400 and an unknown method with 405, before any route", async () => {
    for (const path of [
      "/verify/%FF",
      "/api/sandbox/v1/apps/%FF",
      "/console/%FF",
      "/invite/%FF",
      "/api/auth/%FF",
    ]) {
      const res = await callThroughProxy("GET", `${OWN_HOST}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.handled, path).toBeUndefined();
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.body.error, path).toMatchObject({ code: "VALIDATION_ERROR", requestId: expect.any(String) });
    }
    // (a Web Request cannot say TRACE; the production server refuses it: server/production.test.mjs)
    const trace = await callThroughProxy("PROPFIND", `${OWN_HOST}/console/sandbox/dashboard`);
    expect(trace.status).toBe(405);
    expect(trace.handled).toBeUndefined();
    expect(trace.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
  });

  it("refuses a declared body over the surface's limit on next-auth, hosted and page paths", async () => {
    for (const path of ["/api/auth/callback/credentials", "/verify/x", "/no/such/page"]) {
      const res = await callThroughProxy("POST", `${OWN_HOST}${path}`, {
        headers: {
          "content-length": String(8 * 1024 * 1024),
          "content-type": "application/x-www-form-urlencoded",
        },
      });
      expect(res.status, path).toBe(413);
      expect(res.handled, path).toBeUndefined();
      expect(res.body.error.code, path).toBe("PAYLOAD_TOO_LARGE");
    }
  });

  it("gives the console, back-office and sign-in pages a fresh nonce policy that forbids framing", async () => {
    const nonces = new Set<string>();
    for (const path of [
      "/",
      "/signup",
      "/invite/inv_x",
      "/console/sandbox/dashboard",
      "/operator/sandbox/activations",
    ]) {
      const routed = await proxy(
        new NextRequest(`${OWN_HOST}${path}`, { headers: { host: "localhost:3000" } }),
      );
      const csp = routed.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, path).toBeTruthy();
      nonces.add(nonce!);
      expect(csp, path).toContain("'strict-dynamic'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(csp, path).toContain("base-uri 'none'");
      expect(routed.headers.get("x-frame-options"), path).toBe("DENY");
      // Next.js reads the nonce from the request's copy of the policy
      expect(routed.headers.get("x-middleware-request-content-security-policy"), path).toBe(csp);
    }
    expect(nonces.size).toBe(5);
    const api = await proxy(
      new NextRequest(`${OWN_HOST}/api/sandbox/v1/apps`, { headers: { host: "localhost:3000" } }),
    );
    expect(api.headers.get("content-security-policy")).toBeNull();
  });
});
