// Issue 23 (item 9): a session /oidc/{env}/auth starts for an anonymous request is "untouched"
// until its end-user acts on it: it is in no list or statistic of the workspace, each app may have
// only IDV_OIDC_UNTOUCHED_LIMIT of them per hour, and once ended it is purged.
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { purgeExpiredOidcRows } from "@/lib/oidc/purge";
import { rollupVerificationStats } from "@/lib/stats/rollup";
import { settledBefore } from "@/lib/stats/verifications";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { restoreEnvAfterEach, setEnv } from "@/lib/testing/env";
import { authorizationPath, makeOidcApp } from "@/lib/testing/oidc-requests";
import { bearer, call } from "@/lib/testing/router";
import { expireIfDue, startAuthentication } from "@/lib/verifications/transitions";
import { countRows, inTransaction } from "@/lib/db/kysely";

restoreEnvAfterEach();

const REDIRECT = "https://rp.example.com/cb";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const DAY_MS = 24 * 3600 * 1000;

let nextAddress = 1;
/** An address of this file's own, so that the per-address limit of /auth never meets another test. */
const address = () => `198.51.100.${nextAddress++}`;

const authUrl = (clientId: string, extra: Record<string, string> = {}) =>
  authorizationPath({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "openid",
    provider: "passport",
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    ...extra,
  });

const sessionIdOf = (location: string | null) => new URL(location!).pathname.split("/")[2]!;

/** An anonymous authorization request (no browser follows it); the session it started. */
async function anonymousAuth(clientId: string, ip: string): Promise<string> {
  const res = await call("GET", authUrl(clientId), { headers: { "x-forwarded-for": ip } });
  expect(res.status).toBe(303);
  return sessionIdOf(res.headers.get("location"));
}

/** A browser sends the authorization request, follows the OP to the hosted page and reaches the provider. */
async function signInAndStart(clientId: string): Promise<string> {
  const browser = new CookieJar();
  const headers = { "x-forwarded-for": address() };
  const auth = await browser.call("GET", authUrl(clientId), { headers });
  expect(auth.status).toBe(303);
  const id = sessionIdOf(auth.headers.get("location"));
  expect((await browser.call("GET", auth.headers.get("location")!, { headers })).status).toBe(303);
  // the end-user's first act: they go on to the identity provider
  expect((await browser.call("GET", `/verify/${id}/start`, { headers })).status).toBe(303);
  return id;
}

/** The workspace's verification log (ids) and dashboard figures, as the console reads them. */
async function consoleView(key: string) {
  const list = await call("GET", "/api/sandbox/v1/verifications?limit=100", { headers: bearer(key) });
  expect(list.status).toBe(200);
  const stats = await call("GET", "/api/sandbox/v1/stats/verifications?period=24h", { headers: bearer(key) });
  expect(stats.status).toBe(200);
  return {
    ids: (list.body.data as { verificationId: string }[]).map((v) => v.verificationId),
    total: list.body.total as number,
    totals: stats.body.totals,
    funnel: stats.body.funnel,
  };
}

/** The verifications table, to count or read its rows. */
const verifications = () => kysely().selectFrom("verifications");
const verification = (id: string) => verifications().selectAll().where("id", "=", id).executeTakeFirst();

describe("sessions nobody acted on", () => {
  it("50 anonymous /auth requests leave the verification log and the dashboard as they were; the end-user's act lists the session", async () => {
    const t = await makeOidcApp(REDIRECT, ["passport"]);
    const key = t.ws.keys.sandbox;
    const api = await t.start({ providerId: "passport" });
    expect(api.status).toBe(201);
    const before = await consoleView(key);
    expect(before.ids).toEqual([api.body.verificationId]);
    expect(before.totals).toMatchObject({ created: 1, open: 1 });

    const ip = address();
    const anonymous: string[] = [];
    for (let i = 0; i < 50; i++) anonymous.push(await anonymousAuth(t.app.clientId, ip));
    expect(new Set(anonymous).size).toBe(50);
    expect(
      await countRows(verifications().where("appId", "=", t.app.clientId).where("untouched", "=", true)),
    ).toBe(50);
    expect(await consoleView(key)).toEqual(before);

    // one that expires without an act stays out of the figures too
    const expired = await inTransaction(kysely(), async (tx) => {
      await tx
        .updateTable("verifications")
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where("id", "=", anonymous[0]!)
        .execute();
      return expireIfDue(tx, anonymous[0]!);
    });
    expect(expired).toBe(true);
    expect(await consoleView(key)).toEqual(before);

    const acted = await signInAndStart(t.app.clientId);
    const after = await consoleView(key);
    expect(after.ids).toEqual([acted, api.body.verificationId]);
    expect(after.total).toBe(2);
    expect(after.totals).toMatchObject({ created: 2, open: 2, expired: 0 });
    expect(after.funnel).toMatchObject({ created: 2, started: 1 });
    const row = await verification(acted);
    expect(row).toMatchObject({ untouched: false, status: "authenticating" });
  });

  it("are capped per client: over IDV_OIDC_UNTOUCHED_LIMIT /auth starts none and answers temporarily_unavailable to the client", async () => {
    setEnv({ IDV_OIDC_UNTOUCHED_LIMIT: "3" });
    const t = await makeOidcApp(REDIRECT, ["passport"]);
    const other = await makeOidcApp(REDIRECT, ["passport"]);
    const count = () => countRows(verifications().where("appId", "=", t.app.clientId));
    // from three addresses: the cap is the client's, whoever sends the requests
    for (let i = 0; i < 3; i++) await anonymousAuth(t.app.clientId, address());
    expect(await count()).toBe(3);

    const capped = await call("GET", authUrl(t.app.clientId, { state: "st-1" }), {
      headers: { "x-forwarded-for": address() },
    });
    expect(capped.status).toBe(303);
    const back = new URL(capped.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("temporarily_unavailable");
    expect(back.searchParams.get("error_description")).toContain("try again later");
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("iss")).toMatch(/\/oidc\/sandbox$/);
    expect(back.searchParams.get("code")).toBeNull();
    expect(await count()).toBe(3);
    expect(
      await countRows(kysely().selectFrom("oidcAuthorizationRequests").where("appId", "=", t.app.clientId)),
    ).toBe(3);

    // another client is not held up
    expect(await anonymousAuth(other.app.clientId, address())).toMatch(/^ver_/);
    // a session its end-user acted on no longer counts: the client may start one more
    const [first] = await verifications().select("id").where("appId", "=", t.app.clientId).limit(1).execute();
    await inTransaction(kysely(), (tx) => startAuthentication(tx, first!.id));
    await anonymousAuth(t.app.clientId, address());
    expect(await count()).toBe(4);
    const again = await call("GET", authUrl(t.app.clientId), { headers: { "x-forwarded-for": address() } });
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toBe("temporarily_unavailable");
    expect(await count()).toBe(4);
  });

  it("are purged a day after they ended; a session its end-user acted on is kept", async () => {
    const t = await makeOidcApp(REDIRECT, ["passport"]);
    const untouched = await anonymousAuth(t.app.clientId, address());
    const acted = await signInAndStart(t.app.clientId);
    const db = kysely();
    for (const id of [untouched, acted]) {
      await inTransaction(db, async (tx) => {
        await tx
          .updateTable("verifications")
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where("id", "=", id)
          .execute();
        expect(await expireIfDue(tx, id)).toBe(true);
      });
    }
    // within the day after the end: still there
    expect((await purgeExpiredOidcRows(db)).untouchedSessions).toBe(0);
    expect(await countRows(verifications().where("id", "in", [untouched, acted]))).toBe(2);
    const purged = await purgeExpiredOidcRows(db, { now: new Date(Date.now() + DAY_MS + 60_000) });
    expect(purged.untouchedSessions).toBeGreaterThanOrEqual(1);
    expect(await verification(untouched)).toBeUndefined();
    expect(await verification(acted)).toMatchObject({
      status: "expired",
      untouched: false,
    });
  });

  it("make no day of the statistics rollup, nor count in one", async () => {
    const t = await makeOidcApp(REDIRECT, ["passport"]);
    const id = await anonymousAuth(t.app.clientId, address());
    // an untouched session, ended, on a settled day three days back
    const day = new Date(settledBefore().getTime() - 3 * DAY_MS + 3600 * 1000);
    await kysely()
      .updateTable("verifications")
      .set({ createdAt: day, expiresAt: day, endedAt: day, status: "expired", updatedAt: new Date() })
      .where("id", "=", id)
      .execute();
    const result = await rollupVerificationStats(kysely(), { workspaceId: t.ws.workspaceId });
    expect(result).toEqual({ days: [], missingLeft: 0, openLeft: 0 });
    expect(
      await countRows(
        kysely().selectFrom("verificationDailyStats").where("workspaceId", "=", t.ws.workspaceId),
      ),
    ).toBe(0);
  });
});
