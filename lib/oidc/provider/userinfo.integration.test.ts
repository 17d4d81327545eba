/**
 * /userinfo as read in one statement (token, verification and app together): every way a token
 * can stop being good gives the same answers as before (oidc-provider.integration.test.ts has the
 * request-format refusals, expiry and the revocation by secret rotation).
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { kysely } from "@/lib/db/client";
import { SERVED_APP_HEADER } from "@/lib/domains/served-app";
import { randomToken } from "@/lib/ids";
import { bearer, call } from "@/lib/testing/router";
import { makeVerifyingApp } from "@/lib/testing/verifications";
import { personalDataWipe } from "@/lib/verifications/personal-data";

/** An app, one of its sessions (completed unless `complete` is false) and an access token for it. */
async function tokenFor(options: { complete?: boolean } = {}) {
  const t = await makeVerifyingApp(["passport"]);
  const started = await t.start({ providerId: "passport" });
  expect(started.status).toBe(201);
  const id = started.body.verificationId as string;
  if (options.complete !== false) expect((await t.simulate(id, { outcome: "success" })).status).toBe(200);
  const token = randomToken(43);
  // as the code exchange stores it (lib/oidc/exchange.ts)
  await kysely()
    .insertInto("oidcAccessTokens")
    .values({
      tokenHash: sha256Hex(token),
      appId: t.app.clientId,
      environment: "sandbox",
      verificationId: id,
      codeHash: sha256Hex(`code-${token}`),
      scope: "openid",
      expiresAt: new Date(Date.now() + 600_000),
    })
    .execute();
  return { t, id, token };
}

const userinfo = (token: string, headers: Record<string, string> = {}) =>
  call("GET", "/oidc/sandbox/userinfo", { headers: { ...bearer(token), ...headers } });

function expectRefused(res: Awaited<ReturnType<typeof userinfo>>, description: RegExp) {
  expect(res.status).toBe(401);
  expect(res.body.error).toBe("invalid_token");
  expect(res.body.error_description).toMatch(description);
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="userinfo", error="invalid_token"/);
  expect(res.headers.get("cache-control")).toBe("no-store");
}

describe("/userinfo", () => {
  it("answers the session's userinfo, the same object as the REST userinfo, by header or form", async () => {
    const { t, id, token } = await tokenFor();
    const rest = await t.userinfo(id);
    expect(rest.status).toBe(200);
    const res = await userinfo(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(rest.body);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const form = await call("POST", "/oidc/sandbox/userinfo", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      rawBody: `access_token=${token}`,
    });
    expect(form.status).toBe(200);
    expect(form.body).toEqual(rest.body);
  });

  it("refuses a revoked token, a deleted app's token and an over-long token", async () => {
    const revoked = await tokenFor();
    await kysely()
      .updateTable("oidcAccessTokens")
      .set({ revokedAt: new Date() })
      .where("tokenHash", "=", sha256Hex(revoked.token))
      .execute();
    expectRefused(await userinfo(revoked.token), /revoked/);

    const deleted = await tokenFor();
    const del = await call("DELETE", `/api/sandbox/v1/apps/${deleted.t.app.clientId}`, {
      headers: bearer(deleted.t.ws.keys.sandbox),
    });
    expect(del.status).toBe(200);
    expectRefused(await userinfo(deleted.token), /invalid/);

    expectRefused(await userinfo("a".repeat(257)), /invalid/);
  });

  it("refuses the token of a session that has not completed, or whose personal data was deleted", async () => {
    const pending = await tokenFor({ complete: false });
    expectRefused(await userinfo(pending.token), /completed/);

    const wiped = await tokenFor();
    expect((await userinfo(wiped.token)).status).toBe(200);
    await kysely().updateTable("verifications").set(personalDataWipe()).where("id", "=", wiped.id).execute();
    expectRefused(await userinfo(wiped.token), /deleted/);
  });

  it("on a custom domain, answers only its own app's tokens", async () => {
    const { t, token } = await tokenFor();
    expect((await userinfo(token, { [SERVED_APP_HEADER]: t.app.clientId })).status).toBe(200);
    expectRefused(await userinfo(token, { [SERVED_APP_HEADER]: "app_someone_else" }), /invalid/);
    // another environment's endpoint does not know it either
    const production = await call("GET", "/oidc/production/userinfo", { headers: bearer(token) });
    expect(production.status).toBe(401);
  });
});
