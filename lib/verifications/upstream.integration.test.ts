/**
 * A production session run by a real upstream OpenID Provider (oidc-provider on loopback),
 * connected through the Operator API (PUT /v1/operator/connections/{providerId}): the broker's own
 * flow from session creation to userinfo, and what a disabled, changed or deleted connection does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { opSettings, putTestConnection, testOperatorKey } from "../testing/connections";
import { bearer, call } from "../testing/router";
import { startUpstreamOp, type TUpstreamOp } from "../testing/upstream-oidc";
import { eventTypes, makeVerifyingApp } from "../testing/verifications";
import {
  beginUpstreamAuthentication,
  completeUpstreamAuthentication,
  upstreamCallbackUrl,
  usesUpstream,
} from "./upstream";
import { isolateTestDatabase } from "../testing/webhooks";

// connections are environment-wide and other files connect production providers as they run
// (lib/testing/verifications.ts activateProviders): this file keeps its own database
isolateTestDatabase();

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
  await putTestConnection("production", "de_eid", {
    adapter: "oidc",
    settings: opSettings(op, { acrToLoa: { "http://eidas.europa.eu/LoA/high": 3 } }),
  });
});

afterAll(async () => {
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

  it("refuses a callback carrying another state and leaves the session as it was; the real one still completes", async () => {
    const t = await makeVerifyingApp(["de_eid"], "production");
    const id = (await t.start({ providerId: "de_eid", flowType: "redirect" })).body.verificationId as string;
    const { url } = await beginUpstreamAuthentication(id);
    const callback = await op.signIn(url, "erika-4711");
    // an older tab's answer, or a request forged by someone who knows the session id
    const foreign = new URL(upstreamCallbackUrl());
    foreign.search = new URLSearchParams({ error: "server_error", state: "someone-elses-state" }).toString();
    const refused = await completeUpstreamAuthentication(id, foreign).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("VERIFICATION_STATE_CONFLICT");
    expect((await t.status(id)).body.status).toBe("authenticating");
    expect((await completeUpstreamAuthentication(id, callback)).status).toBe("completed");
  });

  it("follows the connection: disabled or deleted, no sign-in starts; a change applies at once", async () => {
    const t = await makeVerifyingApp(["nl_digid"], "production");
    const id = (await t.start({ providerId: "nl_digid", flowType: "redirect" })).body
      .verificationId as string;
    const session = { environment: "production" as const, providerId: "nl_digid" };
    // created while connected (makeVerifyingApp connects it), then disconnected: it fails at once
    const disconnected = await call("DELETE", "/api/production/v1/operator/connections/nl_digid", {
      headers: bearer(await testOperatorKey()),
    });
    expect(disconnected.status).toBe(204);
    expect(await usesUpstream(session)).toBe(false);
    expect((await t.status(id)).body).toMatchObject({ status: "failed" });
    await expect(beginUpstreamAuthentication(id)).rejects.toMatchObject({ code: "VERIFICATION_TERMINAL" });

    // connected, but disabled
    await putTestConnection("production", "nl_digid", {
      adapter: "oidc",
      enabled: false,
      settings: opSettings(op),
    });
    expect(await usesUpstream(session)).toBe(false);
    // the same provider connected in the sandbox runs nothing in production
    await putTestConnection("sandbox", "nl_digid", { adapter: "oidc", settings: opSettings(op) });
    expect(await usesUpstream(session)).toBe(false);

    // enabled, with another client id: the next authorization request carries it
    await putTestConnection("production", "nl_digid", {
      adapter: "oidc",
      settings: opSettings(op, { clientId: "someone-else", clientSecret: undefined }),
    });
    expect(await usesUpstream(session)).toBe(true);
    const next = (await t.start({ providerId: "nl_digid", flowType: "redirect" })).body
      .verificationId as string;
    const first = new URL((await beginUpstreamAuthentication(next)).url);
    expect(first.searchParams.get("client_id")).toBe("someone-else");

    // a change of settings (same adapter, enabled) leaves the session open
    await putTestConnection("production", "nl_digid", { adapter: "oidc", settings: opSettings(op) });
    const second = new URL((await beginUpstreamAuthentication(next)).url);
    expect(second.searchParams.get("client_id")).toBe(op.clientId);

    const deleted = await call("DELETE", "/api/production/v1/operator/connections/nl_digid", {
      headers: bearer(await testOperatorKey()),
    });
    expect(deleted.status).toBe(204);
    expect(await usesUpstream(session)).toBe(false);
    const refused = await beginUpstreamAuthentication(next).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("VERIFICATION_TERMINAL");
  });

  it("ends a sign-in in progress failed (provider_unavailable) when its connection is deleted meanwhile; the return changes nothing", async () => {
    await putTestConnection("production", "at_id_austria", { adapter: "oidc", settings: opSettings(op) });
    const t = await makeVerifyingApp(["at_id_austria"], "production");
    const id = (await t.start({ providerId: "at_id_austria", flowType: "redirect" })).body
      .verificationId as string;
    const { url } = await beginUpstreamAuthentication(id);
    const deleted = await call("DELETE", "/api/production/v1/operator/connections/at_id_austria", {
      headers: bearer(await testOperatorKey()),
    });
    expect(deleted.status).toBe(204);
    // failed with the DELETE, before the end-user comes back
    expect((await t.status(id)).body).toMatchObject({ status: "failed" });
    const callback = await op.signIn(url, "erika-4711");
    await expect(completeUpstreamAuthentication(id, callback)).rejects.toMatchObject({
      code: "VERIFICATION_TERMINAL",
    });
    expect(await eventTypes(id)).toContain("verification.failed");
  });
});
