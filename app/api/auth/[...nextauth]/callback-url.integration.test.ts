/**
 * next-auth's endpoints and a malformed callbackUrl (issue 23, item 7): next-auth parses it with
 * `new URL()` and answered `http://x:y` or `http://127.0.0.1:3917.evil.example/` with a 500. A
 * query parameter or form field that is no path and no URL of PUBLIC_URL's origin is now 400 with
 * the REST envelope; such a `next-auth.callback-url` cookie is dropped and cleared. The route runs
 * next-auth on what it checked (no Next.js request scope needed), so a real sign-in works here too.
 */
import { describe, expect, it } from "vitest";
import { sessionCookieName } from "@/lib/auth/console/credential";
import { config } from "@/lib/config";
import { makeWorkspace } from "@/lib/testing/factories";
import { call, type CallResult } from "@/lib/testing/router";

const FORM = "application/x-www-form-urlencoded";
const MALFORMED = [
  "http://x:y",
  "http://127.0.0.1:3917.evil.example/",
  "https://evil.example/console",
  "//evil.example/",
];

function expectCallbackRefused(res: CallResult, what: string) {
  expect(res.status, what).toBe(400);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.body.error, what).toMatchObject({
    code: "VALIDATION_ERROR",
    requestId: res.headers.get("x-request-id"),
    details: [{ path: "callbackUrl", message: expect.any(String) }],
  });
}

/** A CSRF token and the cookie that goes with it (next-auth's double submit). */
async function csrf(): Promise<{ token: string; cookie: string }> {
  const res = await call("GET", "/api/auth/csrf");
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ");
  return { token: res.body.csrfToken as string, cookie };
}

describe("next-auth's callbackUrl", () => {
  it("refuses a malformed or foreign callbackUrl query parameter with 400 on csrf, session and providers", async () => {
    for (const action of ["csrf", "session", "providers"]) {
      for (const value of MALFORMED) {
        const res = await call("GET", `/api/auth/${action}?callbackUrl=${encodeURIComponent(value)}`);
        expectCallbackRefused(res, `${action} ${value}`);
      }
    }
    // a path, or a URL of PUBLIC_URL's origin, is fine
    const path = await call(
      "GET",
      `/api/auth/providers?callbackUrl=${encodeURIComponent("/console/sandbox/apps")}`,
    );
    expect(path.status).toBe(200);
    expect(path.body.credentials).toMatchObject({ id: "credentials" });
    const own = `${config().publicUrl}/console/sandbox/apps`;
    expect((await call("GET", `/api/auth/csrf?callbackUrl=${encodeURIComponent(own)}`)).status).toBe(200);
  });

  it("refuses a sign-in whose form carries a malformed callbackUrl with 400, and signs in with a good one", async () => {
    const ws = await makeWorkspace();
    const { token, cookie } = await csrf();
    const form = (callbackUrl: string) =>
      new URLSearchParams({
        email: ws.email,
        password: "correct horse battery staple",
        csrfToken: token,
        callbackUrl,
        json: "true",
      }).toString();
    for (const value of MALFORMED) {
      const res = await call("POST", "/api/auth/callback/credentials", {
        headers: { "content-type": FORM, cookie },
        rawBody: form(value),
      });
      expectCallbackRefused(res, value);
      expect(res.headers.getSetCookie().join("\n")).not.toContain(`${sessionCookieName()}=`);
    }
    const res = await call("POST", "/api/auth/callback/credentials", {
      headers: { "content-type": FORM, cookie },
      rawBody: form("/console/sandbox/dashboard"),
    });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`${config().publicUrl}/console/sandbox/dashboard`);
    expect(res.headers.getSetCookie().join("\n")).toMatch(new RegExp(`(^|\n)${sessionCookieName()}=[^;]+`));
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("drops and clears a next-auth.callback-url cookie that is not acceptable, instead of a 500", async () => {
    for (const value of MALFORMED) {
      const res = await call("GET", "/api/auth/session", {
        headers: { cookie: `next-auth.callback-url=${encodeURIComponent(value)}` },
      });
      expect(res.status, value).toBe(200);
      expect(res.body, value).toEqual({});
      expect(res.headers.getSetCookie(), value).toContainEqual(
        expect.stringMatching(/^next-auth\.callback-url=; Path=\/; Max-Age=0/),
      );
      const signin = await call("GET", "/api/auth/signin", {
        headers: { cookie: `next-auth.callback-url=${encodeURIComponent(value)}` },
      });
      expect(signin.status, value).toBe(302);
      expect(signin.headers.get("location"), value).not.toContain("evil");
    }
    // next-auth's own cookie (PUBLIC_URL's origin) stays
    const kept = await call("GET", "/api/auth/session", {
      headers: { cookie: `next-auth.callback-url=${encodeURIComponent(config().publicUrl)}` },
    });
    expect(kept.status).toBe(200);
    expect(kept.headers.getSetCookie().join("\n")).not.toContain("Max-Age=0");
  });
});
