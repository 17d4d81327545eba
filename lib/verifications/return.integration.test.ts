import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { bearer, call } from "../testing/router";
import { makeVerifyingApp } from "../testing/verifications";
import { returnUrlFor } from "./return";

const returnUrl = (id: string) => getDb().$transaction((tx) => returnUrlFor(tx, id));

describe("return address after a session", () => {
  it("goes to the session's redirect_uri with status, state and a code that the REST /token accepts", async () => {
    const t = await makeVerifyingApp();
    await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { redirectUris: ["https://shop.example.com/cb"] },
    });
    const { verificationId: id } = (
      await t.start({ providerId: "passport", redirect_uri: "https://shop.example.com/cb", state: "s-1" })
    ).body;
    await expect(returnUrl(id)).rejects.toMatchObject({ code: "VERIFICATION_STATE_CONFLICT" });
    await t.simulate(id, { outcome: "success" });
    const url = new URL((await returnUrl(id))!);
    expect(`${url.origin}${url.pathname}`).toBe("https://shop.example.com/cb");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      verificationId: id,
      status: "completed",
      state: "s-1",
    });
    const token = await call("POST", "/api/sandbox/token", {
      headers: t.creds,
      body: { grant_type: "authorization_code", code: url.searchParams.get("code") },
    });
    expect(token.status).toBe(200);
    expect(typeof token.body.id_token).toBe("string");
  });

  it("uses the app's default failure address, never an unregistered one, and nothing without one", async () => {
    const t = await makeVerifyingApp();
    await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: {
        redirectUris: ["https://shop.example.com/cb"],
        defaultFailureRedirectUri: "https://shop.example.com/failed",
      },
    });
    const a = (await t.start({ providerId: "passport", redirect_uri: "https://shop.example.com/cb" })).body
      .verificationId;
    // the address was unregistered after the session started: the default is used instead
    await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { redirectUris: [] },
    });
    await t.simulate(a, { outcome: "cancel" });
    const url = new URL((await returnUrl(a))!);
    expect(`${url.origin}${url.pathname}`).toBe("https://shop.example.com/failed");
    expect(url.searchParams.get("status")).toBe("cancelled");
    expect(url.searchParams.get("code")).toBeNull();

    const b = (await t.start({ providerId: "passport" })).body.verificationId;
    await t.simulate(b, { outcome: "success" });
    expect(await returnUrl(b)).toBeNull(); // no success default: the hosted final page
  });
});

describe("sessions started by the OpenID Provider", () => {
  it("return through the issuer the client used", async () => {
    const t = await makeVerifyingApp();
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    await getDb().oidcAuthorizationRequest.create({
      data: {
        id: `oar_${id}`,
        verificationId: id,
        appId: t.app.clientId,
        environment: "sandbox",
        redirectUri: "https://rp.example.com/cb",
        issuer: "https://auth.shop.example.com",
        scope: "openid",
        expiresAt: new Date(Date.now() + 600_000),
      },
    });
    await t.simulate(id, { outcome: "success" });
    expect(await returnUrl(id)).toBe(`https://auth.shop.example.com/resume/${id}`);
  });
});
