// Issue 12 (items 2, 7, 10): the OpenID Provider's answer goes only to the browser that sent the
// authorization request; anonymous repetition stores no codes and wakes no webhooks; errors are
// redirected only to a validated client's registered redirect_uri.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { authorizationPath, makeOidcApp } from "@/lib/testing/oidc-requests";
import { bearer, call } from "@/lib/testing/router";
import { eventTypes, makeVerifyingApp } from "@/lib/testing/verifications";
import { expireIfDue } from "@/lib/verifications/transitions";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { countRows, inTransaction } from "@/lib/db/kysely";

const REDIRECT = "https://rp.example.com/cb";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

const oidcApp = (providers: string[] = ["passport"], body: Record<string, unknown> = {}) =>
  makeOidcApp(REDIRECT, providers, body);

const authUrl = (clientId: string, extra: Record<string, string | undefined> = {}) =>
  authorizationPath(
    {
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid",
      provider: "passport",
      code_challenge: CHALLENGE,
      code_challenge_method: "S256",
    },
    extra,
  );

/** The browser sends the authorization request and follows the OP to the hosted page. */
async function startSignIn(browser: CookieJar, clientId: string, extra: Record<string, string> = {}) {
  const auth = await browser.call("GET", authUrl(clientId, extra));
  expect(auth.status).toBe(303);
  const handoff = new URL(auth.headers.get("location")!);
  expect(handoff.pathname).toMatch(/^\/verify\/ver_[0-9A-Z]+\/bind$/);
  const id = handoff.pathname.split("/")[2]!;
  const hosted = await browser.call("GET", handoff.toString());
  expect(hosted.status).toBe(303);
  expect(hosted.headers.get("location")).toBe(`/verify/${id}`);
  return id;
}

const codesOf = (verificationId: string) =>
  countRows(kysely().selectFrom("authorizationCodes").where("verificationId", "=", verificationId));

/** The rows of `table` that belong to the app `appId`, counted. */
const rowsOfApp = (table: "verifications" | "verificationEvents" | "webhookDeliveries", appId: string) =>
  countRows(kysely().selectFrom(table).where("appId", "=", appId));

/** The session's event of `type`. */
const eventOf = (verificationId: string, type: string) =>
  kysely()
    .selectFrom("verificationEvents")
    .selectAll()
    .where("verificationId", "=", verificationId)
    .where("type", "=", type)
    .executeTakeFirstOrThrow();

describe("stolen verification id (the id is in the QR code)", () => {
  it("gives an attacker neither the code nor the client's state; the browser that started gets both", async () => {
    const t = await oidcApp();
    const victim = new CookieJar();
    const id = await startSignIn(victim, t.app.clientId, { state: "victim-state" });
    const signin = victim.find("idv_signin")!;
    expect(signin.attributes).toHaveProperty("httponly");
    expect(signin.attributes.samesite).toBe("Lax");
    expect(signin.path).toMatch(/^\/oidc\/sandbox\/resume\/[A-Za-z0-9_-]{43}$/);
    expect(signin.path).not.toContain(id);
    // no Secure flag on an http PUBLIC_URL (browsers would drop the cookie)
    expect(signin.attributes).not.toHaveProperty("secure");
    expect((await t.simulate(id, { outcome: "success" })).status).toBe(200);

    const attacker = new CookieJar();
    const polled = await attacker.call("GET", `/verify/${id}/status`);
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual({ status: "completed" });
    const resumed = await attacker.call("GET", `/oidc/sandbox/resume/${id}`);
    expect(resumed.status).toBe(400);
    expect(resumed.headers.get("location")).toBeNull();
    expect(resumed.text).not.toContain("victim-state");
    expect(await codesOf(id)).toBe(0);

    const own = await victim.call("GET", `/verify/${id}/status`);
    const next = new URL(own.body.next);
    expect(next.pathname).toBe(signin.path);
    // even with the resume address, a browser without the cookie gets nothing and consumes nothing
    const withToken = await attacker.call("GET", next.toString());
    expect(withToken.status).toBe(400);
    expect(withToken.headers.get("location")).toBeNull();
    expect(withToken.text).toContain("another browser");
    const forged = new CookieJar();
    const wrong = await forged.call("GET", next.toString(), { headers: { cookie: "idv_signin=forged" } });
    expect(wrong.status).toBe(400);
    expect(await codesOf(id)).toBe(0);
    const request = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .selectAll()
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(request.completedAt).toBeNull();

    const answered = await victim.call("GET", next.toString());
    expect(answered.status).toBe(303);
    const back = new URL(answered.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("victim-state");
    expect(back.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await codesOf(id)).toBe(1);
    // answered once: the status no longer points anywhere, a second visit is the error page
    expect((await victim.call("GET", `/verify/${id}/status`)).body.next).toBeUndefined();
    expect((await victim.call("GET", next.toString())).status).toBe(400);
  });

  it("a second device (the phone) authenticates but never learns where to return; the first device resumes", async () => {
    const t = await oidcApp();
    const desktop = new CookieJar();
    const id = await startSignIn(desktop, t.app.clientId, { state: "st" });
    const phone = new CookieJar();
    const acted = await phone.call("POST", `/sandbox/verify/${id}/act`, {
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      rawBody: new URLSearchParams({ outcome: "success", flow: "qr" }).toString(),
    });
    expect(acted.headers.get("location")).toBe(`/sandbox/verify/${id}?flow=qr&done=1`);
    expect((await phone.call("GET", `/verify/${id}/status`)).body).toEqual({ status: "completed" });
    // the phone cannot claim the session by repeating the hand-off without its secret
    const bind = await phone.call("GET", `/verify/${id}/bind`);
    expect(bind.headers.getSetCookie()).toEqual([]);
    expect((await phone.call("GET", `/verify/${id}/status`)).body.next).toBeUndefined();

    const next = (await desktop.call("GET", `/verify/${id}/status`)).body.next as string;
    const answered = await desktop.call("GET", next);
    expect(new URL(answered.headers.get("location")!).searchParams.get("state")).toBe("st");
  });

  it("an initiator who forwards the hand-off cannot resume the sign-in the other browser completes", async () => {
    const t = await oidcApp();
    const initiator = new CookieJar();
    const auth = await initiator.call("GET", authUrl(t.app.clientId, { state: "initiator-state" }));
    const handoff = new URL(auth.headers.get("location")!);
    const id = handoff.pathname.split("/")[2]!;
    // the resume path is visible to the initiator in its own cookie
    const resumePath = initiator.find("idv_signin")!.path;
    const victim = new CookieJar();
    expect((await victim.call("GET", handoff.toString())).headers.getSetCookie()).toHaveLength(1);
    await t.simulate(id, { outcome: "success" });

    // the initiator holds the /auth cookie but not the hosted page's proof
    const bare = await initiator.call("GET", `http://localhost:3000${resumePath}`);
    expect(bare.status).toBe(400);
    const guessed = await initiator.call("GET", `http://localhost:3000${resumePath}?p=${"0".repeat(64)}`);
    expect(guessed.status).toBe(400);
    // the victim's browser holds the proof but not the /auth cookie
    const next = (await victim.call("GET", `/verify/${id}/status`)).body.next as string;
    expect(new URL(next).pathname).toBe(resumePath);
    const fromVictim = await victim.call("GET", next);
    expect(fromVictim.status).toBe(400);
    expect(fromVictim.headers.get("location")).toBeNull();
    expect(await codesOf(id)).toBe(0);
  });

  it("the hand-off to the hosted page works once", async () => {
    const t = await oidcApp();
    const first = new CookieJar();
    const auth = await first.call("GET", authUrl(t.app.clientId));
    const handoff = auth.headers.get("location")!;
    const copied = new CookieJar();
    const used = await first.call("GET", handoff);
    expect(used.headers.getSetCookie()).toHaveLength(1);
    const again = await copied.call("GET", handoff);
    expect(again.status).toBe(303);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it("a phished victim cannot continue, in their own browser, a redirect-flow sign-in the attacker started", async () => {
    const t = await oidcApp(["nl_digid"]);
    const attacker = new CookieJar();
    const id = await startSignIn(attacker, t.app.clientId, { provider: "nl_digid" });
    const victim = new CookieJar();
    const start = await victim.call("GET", `/verify/${id}/start`);
    expect(start.status).toBe(303);
    expect(start.headers.get("location")).toBe(`/verify/${id}`);
    const v = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(v.status).toBe("awaiting_user_action");
    // the browser that started it continues to the provider
    const own = await attacker.call("GET", `/verify/${id}/start`);
    expect(own.headers.get("location")).toMatch(new RegExp(`^/sandbox/verify/${id}\\?flow=redirect`));
  });

  it("requests stored before the binding existed cannot be resumed", async () => {
    const t = await oidcApp();
    const browser = new CookieJar();
    const id = await startSignIn(browser, t.app.clientId);
    await t.simulate(id, { outcome: "success" });
    const next = (await browser.call("GET", `/verify/${id}/status`)).body.next as string;
    const unbound = await kysely()
      .updateTable("oidcAuthorizationRequests")
      .set({ browserBindingHash: null })
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(unbound.numUpdatedRows).toBe(1n);
    const res = await browser.call("GET", next);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await codesOf(id)).toBe(0);
  });
});

describe("no state from anonymous repetition", () => {
  it("polling a completed session mints no code; the answer mints exactly one", async () => {
    const t = await oidcApp();
    const browser = new CookieJar();
    const id = await startSignIn(browser, t.app.clientId);
    await t.simulate(id, { outcome: "success" });
    const nexts = new Set<string>();
    for (let i = 0; i < 5; i++) nexts.add((await browser.call("GET", `/verify/${id}/status`)).body.next);
    expect(nexts.size).toBe(1);
    expect(await codesOf(id)).toBe(0);
    await browser.call("GET", [...nexts][0]!);
    await browser.call("GET", [...nexts][0]!);
    expect(await codesOf(id)).toBe(1);
  });

  it("anonymous /auth requests wake no webhook; the end-user's first action announces the session", async () => {
    const t = await oidcApp(["de_eid"]);
    const hooked = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}/webhook-config`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { url: "https://hooks.example.com/idv", enabled: true, events: [...EVENT_TYPES] },
    });
    expect(hooked.status).toBe(200);

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call("GET", authUrl(t.app.clientId, { provider: "de_eid" }));
      expect(res.status).toBe(303);
      ids.push(new URL(res.headers.get("location")!).pathname.split("/")[2]!);
    }
    const db = kysely();
    expect(await rowsOfApp("verificationEvents", t.app.clientId)).toBe(0);
    expect(await rowsOfApp("webhookDeliveries", t.app.clientId)).toBe(0);

    // an abandoned request expires silently (made due in the transaction that expires it, so
    // that no expiry sweep of a job worker on the shared database takes it first)
    const expired = await inTransaction(db, async (tx) => {
      await tx
        .updateTable("verifications")
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where("id", "=", ids[0]!)
        .execute();
      return expireIfDue(tx, ids[0]!);
    });
    expect(expired).toBe(true);
    expect(await eventTypes(ids[0]!)).toEqual([]);

    // the end-user acts: the creation events come first, in order, then the action's own
    const browser = new CookieJar();
    const id = await startSignIn(browser, t.app.clientId, { provider: "de_eid" });
    expect(await eventTypes(id)).toEqual([]);
    expect((await browser.call("GET", `/verify/${id}/start`)).status).toBe(303);
    expect(await eventTypes(id)).toEqual([
      "verification.created",
      "verification.requested",
      "verification.workflow.started",
      "verification.user.authentication_started",
    ]);
    const requested = await eventOf(id, "verification.requested");
    expect(JSON.stringify(requested.payload)).toContain('"channel":"oidc"');
    const started = await eventOf(id, "verification.workflow.started");
    expect(JSON.stringify(started.payload)).toContain('"mode":"pii"');
    expect(await rowsOfApp("webhookDeliveries", t.app.clientId)).toBe(4);
  });
});

describe("PKCE required per client", () => {
  it("is on for new apps: /auth without code_challenge answers invalid_request to the client", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const app = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { redirectUris: [REDIRECT] },
    });
    expect(app.body.pkceRequired).toBe(true);
    const res = await call(
      "GET",
      authUrl(t.app.clientId, { code_challenge: undefined, code_challenge_method: undefined, state: "s" }),
    );
    expect(res.status).toBe(303);
    const loc = new URL(res.headers.get("location")!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get("error")).toBe("invalid_request");
    expect(loc.searchParams.get("error_description")).toContain("code_challenge");
    expect(loc.searchParams.get("state")).toBe("s");
    expect(await rowsOfApp("verifications", t.app.clientId)).toBe(0);
    // with PKCE the same client signs in
    const ok = await call("GET", authUrl(t.app.clientId));
    expect(new URL(ok.headers.get("location")!).pathname).toMatch(/^\/verify\/ver_/);
  });

  it("can be turned off and on through the Apps API, which validates it", async () => {
    const t = await oidcApp(["passport"], { pkceRequired: false });
    const got = await call("GET", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
    });
    expect(got.body.pkceRequired).toBe(false);
    const res = await call(
      "GET",
      authUrl(t.app.clientId, { code_challenge: undefined, code_challenge_method: undefined }),
    );
    expect(new URL(res.headers.get("location")!).pathname).toMatch(/^\/verify\/ver_/);
    const bad = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { pkceRequired: "yes" },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error.details)).toContain("pkceRequired");
  });

  it("existing apps keep PKCE optional (the migration's column default); new ones have it on", async () => {
    const { rows: columns } = await sql<{ columnDefault: string }>`
      SELECT column_default FROM information_schema.columns
      WHERE table_name = 'apps' AND column_name = 'pkce_required'`.execute(kysely());
    expect(columns[0]?.columnDefault).toBe("false");
    const t = await makeVerifyingApp();
    const app = await kysely()
      .selectFrom("apps")
      .select("pkceRequired")
      .where("id", "=", t.app.clientId)
      .executeTakeFirstOrThrow();
    expect(app.pkceRequired).toBe(true);
  });
});

describe("errors are redirected only once client_id and redirect_uri are validated", () => {
  it.each([
    { response_type: "token" },
    { response_type: undefined },
    { scope: "profile" },
    { prompt: "none" },
    { code_challenge: undefined },
    { provider: "nope" },
    { request: "eyJ.x.y" },
  ])("an unregistered redirect_uri with %o → the error page, no redirect", async (extra) => {
    const t = await oidcApp();
    for (const redirectUri of ["https://evil.example.com/cb", `${REDIRECT}?x=1`, undefined]) {
      const res = await call(
        "GET",
        authUrl(t.app.clientId, { ...extra, redirect_uri: redirectUri, state: "s" }),
      );
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(res.text).toContain("redirect_uri");
    }
    // the same with an unknown client
    const unknown = await call("GET", authUrl("app_00000000000000000000000000", extra));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("location")).toBeNull();
    expect(await rowsOfApp("verifications", t.app.clientId)).toBe(0);
  });
});
