/**
 * A production session run by a real upstream OpenID Provider (oidc-provider on loopback),
 * configured through IDV_UPSTREAM_OIDC: the broker's own flow from session creation to userinfo.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstreamOp, type TUpstreamOp } from "../testing/upstream-oidc";
import { eventTypes, makeVerifyingApp } from "../testing/verifications";
import { beginUpstreamAuthentication, completeUpstreamAuthentication, upstreamCallbackUrl } from "./upstream";

let op: TUpstreamOp;

beforeAll(async () => {
  op = await startUpstreamOp({
    redirectUri: upstreamCallbackUrl(),
    accounts: {
      "erika-4711": {
        claims: { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" },
        acr: "http://eidas.europa.eu/LoA/high",
      },
    },
  });
  process.env.IDV_UPSTREAM_OIDC = JSON.stringify({
    de_eid: {
      issuer: op.issuer,
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      scopes: ["openid", "profile"],
      acrToLoa: { "http://eidas.europa.eu/LoA/high": 3 },
      allowInsecureRequests: true,
    },
  });
});

afterAll(async () => {
  delete process.env.IDV_UPSTREAM_OIDC;
  await op.close();
});

describe("a production session through a real OIDC upstream", () => {
  it("completes with the upstream's claims and level", async () => {
    const t = await makeVerifyingApp(["de_eid"], "production");
    const created = await t.start({ providerId: "de_eid", flowType: "redirect" });
    expect(created.status).toBe(201);
    const id = created.body.verificationId as string;

    const { url } = await beginUpstreamAuthentication(id);
    expect(url.startsWith(`${op.issuer}/auth`)).toBe(true);
    expect((await t.status(id)).body.status).toBe("authenticating");

    const callback = await op.signIn(url, "erika-4711");
    const done = await completeUpstreamAuthentication(id, callback);
    expect(done.status).toBe("completed");

    const info = await t.userinfo(id);
    expect(info.body).toMatchObject({
      provider_id: "de_eid",
      service_loa: 3,
      acr: "urn:idv:loa:3",
      user: { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" },
    });
    expect(await eventTypes(id)).toEqual([
      "verification.created",
      "verification.requested",
      "verification.workflow.started",
      "verification.user.authentication_started",
      "verification.user.authentication_succeeded",
      "verification.completed",
    ]);
  });

  it("ends cancelled when the end-user cancels at the upstream", async () => {
    const t = await makeVerifyingApp(["de_eid"], "production");
    const id = (await t.start({ providerId: "de_eid", flowType: "redirect" })).body.verificationId as string;
    const { url } = await beginUpstreamAuthentication(id);
    const callback = await op.cancel(url);
    const done = await completeUpstreamAuthentication(id, callback);
    expect(done.status).toBe("cancelled");
    expect((await eventTypes(id)).at(-1)).toBe("verification.workflow.cancelled");
  });
});
