// The REST hosted return: where the browser goes once a session has ended, given only to the
// browser the session is bound to, answered once with the session's one code.
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { countRows } from "../db/kysely";
import { CookieJar } from "../testing/cookie-jar";
import { bearer, call } from "../testing/router";
import { makeVerifyingApp } from "../testing/verifications";
import { nextUrlFor } from "./return";

const RETURN = "https://shop.example.com/cb";

async function restApp(body: Record<string, unknown> = { redirectUris: [RETURN] }) {
  const t = await makeVerifyingApp(["passport"]);
  const patched = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
    headers: bearer(t.ws.keys.sandbox),
    body,
  });
  expect(patched.status).toBe(200);
  return t;
}

/** The browser opens the hosted page: the page sends the first browser of a session to /bind. */
async function open(browser: CookieJar, id: string) {
  const bound = await browser.call("GET", `/verify/${id}/bind`);
  expect(bound.status).toBe(303);
  expect(bound.headers.get("location")).toBe(`/verify/${id}`);
  return bound.headers.getSetCookie().length === 1;
}

const codesOf = (verificationId: string) =>
  countRows(kysely().selectFrom("authorizationCodes").where("verificationId", "=", verificationId));

describe("REST hosted return", () => {
  it("goes to the session's redirect_uri with status, state and one code that the REST /token accepts", async () => {
    const t = await restApp();
    const { verificationId: id } = (
      await t.start({ providerId: "passport", redirect_uri: RETURN, state: "s-1" })
    ).body;
    const browser = new CookieJar();
    expect(await open(browser, id)).toBe(true);
    const cookie = browser.find("idv_browser")!;
    expect(cookie.path).toBe(`/verify/${id}`);
    expect(cookie.attributes).toHaveProperty("httponly");
    expect(cookie.attributes.samesite).toBe("Lax");
    expect((await browser.call("GET", `/verify/${id}/status`)).body).toEqual({
      status: "awaiting_user_action",
    });
    await t.simulate(id, { outcome: "success" });

    // polling mints nothing and always names the same address
    for (let i = 0; i < 5; i++) {
      expect((await browser.call("GET", `/verify/${id}/status`)).body).toEqual({
        status: "completed",
        next: `/verify/${id}/return`,
      });
    }
    expect(await codesOf(id)).toBe(0);

    const returned = await browser.call("GET", `/verify/${id}/return`);
    expect(returned.status).toBe(303);
    const url = new URL(returned.headers.get("location")!);
    expect(`${url.origin}${url.pathname}`).toBe(RETURN);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      verificationId: id,
      status: "completed",
      state: "s-1",
    });
    expect(await codesOf(id)).toBe(1);
    const token = await call("POST", "/api/sandbox/token", {
      headers: t.creds,
      body: { grant_type: "authorization_code", code: url.searchParams.get("code") },
    });
    expect(token.status).toBe(200);
    expect(typeof token.body.id_token).toBe("string");

    // answered once: later visits show the final page, and the status points nowhere
    const again = await browser.call("GET", `/verify/${id}/return`);
    expect(again.headers.get("location")).toBe(`/verify/${id}`);
    expect((await browser.call("GET", `/verify/${id}/status`)).body).toEqual({ status: "completed" });
    expect(await codesOf(id)).toBe(1);
  });

  it("a browser that only knows the id (read off the QR code) gets neither code nor state", async () => {
    const t = await restApp();
    const { verificationId: id } = (
      await t.start({ providerId: "passport", redirect_uri: RETURN, state: "victim-state" })
    ).body;
    const victim = new CookieJar();
    expect(await open(victim, id)).toBe(true);
    const attacker = new CookieJar();
    // the page was opened already: nobody else can take the session
    expect(await open(attacker, id)).toBe(false);
    await t.simulate(id, { outcome: "success" });

    const polled = await attacker.call("GET", `/verify/${id}/status`);
    expect(polled.body).toEqual({ status: "completed" });
    const forged = await attacker.call("GET", `/verify/${id}/return`, {
      headers: { cookie: "idv_browser=x" },
    });
    expect(forged.headers.get("location")).toBe(`/verify/${id}`);
    expect(await codesOf(id)).toBe(0);

    const next = (await victim.call("GET", `/verify/${id}/status`)).body.next as string;
    const url = new URL((await victim.call("GET", next)).headers.get("location")!);
    expect(url.searchParams.get("state")).toBe("victim-state");
    expect(url.searchParams.get("code")).not.toBeNull();
  });

  it("an ended session nobody opened is not bound any more", async () => {
    const t = await restApp();
    const { verificationId: id } = (await t.start({ providerId: "passport", redirect_uri: RETURN })).body;
    await t.simulate(id, { outcome: "success" });
    const late = new CookieJar();
    expect(await open(late, id)).toBe(false);
    expect((await late.call("GET", `/verify/${id}/status`)).body.next).toBeUndefined();
    expect((await late.call("GET", `/verify/${id}/return`)).headers.get("location")).toBe(`/verify/${id}`);
    expect(await codesOf(id)).toBe(0);
  });

  it("uses the app's default failure address, never an unregistered one, and nothing without one", async () => {
    const t = await restApp({
      redirectUris: [RETURN],
      defaultFailureRedirectUri: "https://shop.example.com/failed",
    });
    const a = (await t.start({ providerId: "passport", redirect_uri: RETURN })).body.verificationId as string;
    const browser = new CookieJar();
    expect(await open(browser, a)).toBe(true);
    // the address was unregistered after the session started: the default is used instead
    await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { redirectUris: [] },
    });
    await t.simulate(a, { outcome: "cancel" });
    const url = new URL((await browser.call("GET", `/verify/${a}/return`)).headers.get("location")!);
    expect(`${url.origin}${url.pathname}`).toBe("https://shop.example.com/failed");
    expect(url.searchParams.get("status")).toBe("cancelled");
    expect(url.searchParams.get("code")).toBeNull();

    const b = (await t.start({ providerId: "passport" })).body.verificationId as string;
    expect(await open(browser, b)).toBe(true);
    await t.simulate(b, { outcome: "success" });
    // no success default: the hosted final page
    expect((await browser.call("GET", `/verify/${b}/status`)).body.next).toBeUndefined();
    expect((await browser.call("GET", `/verify/${b}/return`)).headers.get("location")).toBe(`/verify/${b}`);
    expect(await codesOf(b)).toBe(0);
  });
});

describe("sessions started by the OpenID Provider", () => {
  it("return through the issuer the client used, by their resume token; never the REST way", async () => {
    const t = await restApp({ redirectUris: [RETURN], defaultSuccessRedirectUri: RETURN });
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    const v = await kysely()
      .updateTable("verifications")
      .set({ viaOidcProvider: true, updatedAt: new Date() })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const request = await kysely()
      .insertInto("oidcAuthorizationRequests")
      .values({
        id: `oar_${id}`,
        verificationId: id,
        appId: t.app.clientId,
        environment: "sandbox",
        redirectUri: "https://rp.example.com/cb",
        issuer: "https://auth.shop.example.com",
        resumeToken: "r".repeat(43),
        scope: "openid",
        expiresAt: new Date(Date.now() + 600_000),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await t.simulate(id, { outcome: "success" });
    const ended = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await nextUrlFor(kysely(), ended)).toBe(`https://auth.shop.example.com/resume/${"r".repeat(43)}`);
    // its request purged, it goes nowhere (not to the app's REST default)
    await kysely().deleteFrom("oidcAuthorizationRequests").where("id", "=", request.id).execute();
    expect(await nextUrlFor(kysely(), { ...v, status: "completed" })).toBeNull();
    // and a browser cannot take it the REST way
    expect(await open(new CookieJar(), id)).toBe(false);
  });
});
