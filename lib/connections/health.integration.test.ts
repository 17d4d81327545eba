/**
 * The health of a connection (issue 24 §4) and disconnecting (§1), against real OpenID Providers
 * (oidc-provider on loopback): sign-ins counted with their latency, a person's cancel not
 * counted, 3 upstream faults in a row → failing and not offered, the re-check job bringing a
 * recovered upstream back, integrators seeing provider_unavailable and never the upstream's text,
 * and a DELETE or a disabling PUT failing the provider's open sessions with their events and
 * webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { jobNamed } from "../jobs/handlers";
import { metrics } from "../metrics/registry";
import {
  opSettings,
  putTestConnection,
  testOperatorKey,
  UNREACHABLE_OIDC_SETTINGS,
} from "../testing/connections";
import { basic, bearer, call } from "../testing/router";
import { startUpstreamOp, type TUpstreamOp } from "../testing/upstream-oidc";
import { activateProviders, eventTypes, makeVerifyingApp } from "../testing/verifications";
import { makeTestPid, presentTestCredential } from "../testing/wallet";
import { isolateTestDatabase, makeWebhookApp } from "../testing/webhooks";
import { startAuthentication } from "../verifications/transitions";
import {
  beginUpstreamAuthentication,
  completeUpstreamAuthentication,
  upstreamCallbackUrl,
} from "../verifications/upstream";
import { beginWalletPresentation, completeWalletPresentation, walletAudience } from "../verifications/wallet";
import type { TConnectionJson } from "./schema";
import { inTransaction } from "../db/kysely";

// the re-check job reaches the loopback upstream through the SSRF guard
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
// connections are environment-wide: this file keeps its own database
isolateTestDatabase();

const ACCOUNTS = {
  "erika-4711": { claims: { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" } },
};

let op: TUpstreamOp;

beforeAll(async () => {
  op = await startUpstreamOp({ redirectUri: upstreamCallbackUrl(), accounts: ACCOUNTS });
});

afterAll(async () => {
  await op.close();
});

async function operatorCall(method: string, path: string, body?: unknown) {
  return call(method, `/api/production/v1/operator/connections${path}`, {
    headers: bearer(await testOperatorKey()),
    ...(body === undefined ? {} : { body }),
  });
}

async function connectionJson(providerId: string): Promise<TConnectionJson> {
  const res = await operatorCall("GET", `/${providerId}`);
  expect(res.status).toBe(200);
  return res.body as TConnectionJson;
}

/** A production session of `providerId` at the upstream: its id and the upstream's callback URL. */
async function signInAt(
  t: Awaited<ReturnType<typeof makeVerifyingApp>>,
  upstream: TUpstreamOp,
  providerId: string,
  action: "signIn" | "cancel" = "signIn",
): Promise<{ id: string; callback: URL }> {
  const created = await t.start({ providerId, flowType: "redirect" });
  expect(created.status).toBe(201);
  const id = created.body.verificationId as string;
  const { url } = await beginUpstreamAuthentication(id);
  const callback =
    action === "signIn" ? await upstream.signIn(url, "erika-4711") : await upstream.cancel(url);
  return { id, callback };
}

/** Completes the sign-in while the upstream's token endpoint is down (503): an upstream fault. */
async function duringOutage(upstream: TUpstreamOp, id: string, callback: URL) {
  upstream.tokenOutage = true;
  try {
    return await completeUpstreamAuthentication(id, callback);
  } finally {
    upstream.tokenOutage = false;
  }
}

async function runRecheckJob(): Promise<void> {
  const job = jobNamed("connection_recheck");
  expect(job?.schedule).toBe("*/5 * * * *");
  await job!.task({});
}

/** idv_upstream_requests_total of `provider` with `outcome` in this process. */
/** The stored row of verification `id`. */
const verificationRow = (id: string) =>
  kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** The `connection.updated` audit entries of connection `connectionId`, oldest first. */
const updatesOf = (connectionId: string) =>
  kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("targetId", "=", connectionId)
    .where("action", "=", "connection.updated")
    .orderBy("createdAt", "asc")
    .execute();

async function upstreamCount(provider: string, outcome: "ok" | "error"): Promise<number> {
  const { values } = await metrics().upstreamRequests.get();
  return values.find((v) => v.labels.provider === provider && v.labels.outcome === outcome)?.value ?? 0;
}

describe("the health of a connection", () => {
  it("counts sign-ins, upstream failures and latency; a person's cancel is not counted", async () => {
    await putTestConnection("production", "de_eid", { adapter: "oidc", settings: opSettings(op) });
    const t = await makeVerifyingApp(["de_eid"], "production");
    const okBefore = await upstreamCount("de_eid", "ok");
    const errorsBefore = await upstreamCount("de_eid", "error");
    expect((await connectionJson("de_eid")).health.lastHour).toEqual({
      signIns: 0,
      failures: 0,
      errorRate: null,
      medianLatencyMs: null,
      maxLatencyMs: null,
    });

    const ok = await signInAt(t, op, "de_eid");
    expect((await completeUpstreamAuthentication(ok.id, ok.callback)).status).toBe("completed");
    const afterSuccess = await connectionJson("de_eid");
    expect(afterSuccess.health.lastHour).toMatchObject({ signIns: 1, failures: 0, errorRate: 0 });
    expect(afterSuccess.health.lastHour.maxLatencyMs).toBeGreaterThanOrEqual(0);
    expect(afterSuccess.health.lastHour.medianLatencyMs).not.toBeNull();
    expect(afterSuccess.health.lastHour.medianLatencyMs!).toBeLessThanOrEqual(
      afterSuccess.health.lastHour.maxLatencyMs!,
    );
    expect(afterSuccess).toMatchObject({ state: "connected", lastError: null });
    expect(afterSuccess.lastSuccessAt).not.toBeNull();

    // the end-user cancels at the upstream: not the connection's failure, not counted
    const cancelled = await signInAt(t, op, "de_eid", "cancel");
    expect((await completeUpstreamAuthentication(cancelled.id, cancelled.callback)).status).toBe("cancelled");
    expect((await connectionJson("de_eid")).health.lastHour).toMatchObject({ signIns: 1, failures: 0 });

    // an upstream fault: counted, the connection still connected (one failure is not "repeatedly")
    const bad = await signInAt(t, op, "de_eid");
    const failed = await duringOutage(op, bad.id, bad.callback);
    expect(failed).toMatchObject({ status: "failed", statusReason: "provider_unavailable" });
    const afterFailure = await connectionJson("de_eid");
    expect(afterFailure.health.lastHour).toMatchObject({ signIns: 2, failures: 1, errorRate: 0.5 });
    expect(afterFailure.health.lastDay).toMatchObject({ signIns: 2, failures: 1, errorRate: 0.5 });
    expect(afterFailure.state).toBe("connected");

    // the list answers the same figures (all connections' health in one statement)
    const list = await operatorCall("GET", "");
    expect(list.status).toBe(200);
    const listed = (list.body as TConnectionJson[]).find((c) => c.providerId === "de_eid")!;
    expect(listed.health).toEqual(afterFailure.health);
    const unconnected = (list.body as TConnectionJson[]).find((c) => c.providerId === "passport")!;
    expect(unconnected.health.lastDay).toMatchObject({ signIns: 0, errorRate: null });

    // stored per bucket: counts and milliseconds, nothing of the person or the session
    const buckets = await kysely()
      .selectFrom("providerConnectionHealth")
      .selectAll()
      .where("connectionId", "=", afterFailure.connectionId!)
      .execute();
    expect(buckets).toHaveLength(1);
    expect(buckets[0]).toMatchObject({ signIns: 2, failures: 1 });
    expect(buckets[0]!.latencyHistogram.reduce((a, b) => a + b, 0)).toBe(2);
    expect(JSON.stringify(buckets)).not.toMatch(/Erika|ver_/);

    // a success ends the run of failures: two more faults after it are not three in a row
    const again = await signInAt(t, op, "de_eid");
    expect((await completeUpstreamAuthentication(again.id, again.callback)).status).toBe("completed");
    for (let i = 0; i < 2; i++) {
      const { id, callback } = await signInAt(t, op, "de_eid");
      await duringOutage(op, id, callback);
    }
    const afterRun = await connectionJson("de_eid");
    expect(afterRun.state).toBe("connected");
    expect(afterRun.health.lastHour).toMatchObject({ signIns: 5, failures: 3, errorRate: 0.6 });
    // the process's metrics count the same calls (lib/metrics: idv_upstream_requests_total)
    expect(await upstreamCount("de_eid", "ok")).toBe(okBefore + 2);
    expect(await upstreamCount("de_eid", "error")).toBe(errorsBefore + 3);
  });

  it("counts a verified wallet presentation; one that does not verify is the wallet's, not counted", async () => {
    const { issuer, holder, credential } = await makeTestPid({
      given_name: "Erika",
      family_name: "Mustermann",
    });
    await putTestConnection("production", "eudi_wallet", {
      adapter: "wallet",
      settings: { issuers: { [issuer.iss]: issuer.jwks }, vct: ["urn:eudi:pid:1"] },
    });
    const t = await makeVerifyingApp(["eudi_wallet"], "production");
    const present = async (nonce: (n: string) => string) => {
      const id = (await t.start({ providerId: "eudi_wallet", flowType: "dc" })).body.verificationId as string;
      const request = await beginWalletPresentation(id);
      const vp = await presentTestCredential(credential, holder, {
        nonce: nonce(request.data.nonce),
        aud: walletAudience(),
      });
      return completeWalletPresentation(id, { vp_token: { pid: [vp] } });
    };
    expect((await present((n) => n)).status).toBe("completed");
    const bad = await present(() => "another-nonce-than-the-request-s-0000000");
    expect(bad).toMatchObject({ status: "failed", statusReason: "invalid_presentation" });
    expect((await connectionJson("eudi_wallet")).health.lastHour).toMatchObject({
      signIns: 1,
      failures: 0,
      errorRate: 0,
    });
  });

  it("shows integrators provider_unavailable, never the upstream's text; 3 faults in a row make it failing", async () => {
    await putTestConnection("production", "ch_swissid", { adapter: "oidc", settings: opSettings(op) });
    const t = await makeVerifyingApp(["ch_swissid"], "production");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id, callback } = await signInAt(t, op, "ch_swissid");
      const done = await duringOutage(op, id, callback);
      expect(done).toMatchObject({ status: "failed", statusReason: "provider_unavailable" });
      ids.push(id);
      // failing from the third upstream fault in a row on, not before
      expect((await connectionJson("ch_swissid")).state).toBe(i < 2 ? "connected" : "failing");
    }

    // the integrator: API, events (webhook bodies) and the decision record say provider_unavailable
    const status = await t.status(ids[0]!);
    expect(status.body).toMatchObject({ status: "failed" });
    expect(status.text).toContain("provider_unavailable");
    expect(status.text).not.toMatch(/maintenance|503|provider_error/);
    const events = await kysely()
      .selectFrom("verificationEvents")
      .selectAll()
      .where("verificationId", "=", ids[0]!)
      .execute();
    const failedEvent = events.find((e) => e.type === "verification.failed")!;
    expect(failedEvent.payload).toMatchObject({
      data: { event: { metadata: { reason: "provider_unavailable" } } },
    });
    expect(JSON.stringify(events.map((e) => e.payload))).not.toMatch(/maintenance|503|provider_error/);
    const decision = await kysely()
      .selectFrom("verificationDecisions")
      .selectAll()
      .where("verificationId", "=", ids[0]!)
      .executeTakeFirst();
    expect(JSON.stringify(decision)).not.toMatch(/maintenance|503|provider_error/);

    // the operator: the upstream's detail as the connection's last error
    const connection = await connectionJson("ch_swissid");
    expect(connection).toMatchObject({ state: "failing" });
    expect(connection.lastError).toMatch(/^provider_error: unexpected HTTP response status code/);
    expect(connection.health.lastHour).toMatchObject({ signIns: 3, failures: 3, errorRate: 1 });

    // not offered any more
    const refused = await t.start({ providerId: "ch_swissid", flowType: "redirect" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");

    // the discovery still answers: the job's check brings it back
    await runRecheckJob();
    expect((await connectionJson("ch_swissid")).state).toBe("connected");
    expect((await t.start({ providerId: "ch_swissid", flowType: "redirect" })).status).toBe(201);
  });

  it("does not count what the end-user's browser brings back: forged codes and error parameters never make it failing", async () => {
    await putTestConnection("production", "no_bankid", { adapter: "oidc", settings: opSettings(op) });
    const t = await makeVerifyingApp(["no_bankid"], "production");
    for (let i = 0; i < 4; i++) {
      const { id, callback } = await signInAt(t, op, "no_bankid");
      const tampered = new URL(callback);
      if (i % 2 === 0) tampered.searchParams.set("code", "forged-code-0000000000000000000000000000");
      else {
        tampered.searchParams.delete("code");
        tampered.searchParams.set("error", "server_error");
      }
      const done = await completeUpstreamAuthentication(id, tampered);
      expect(done.status).toBe("failed");
    }
    const connection = await connectionJson("no_bankid");
    expect(connection).toMatchObject({ state: "connected", lastError: null });
    expect(connection.health.lastHour).toMatchObject({ signIns: 0, failures: 0 });
    expect((await t.start({ providerId: "no_bankid", flowType: "redirect" })).status).toBe(201);
  });

  it("marks an unreachable upstream failing and brings it back when it answers again", async () => {
    const down = await startUpstreamOp({ redirectUri: upstreamCallbackUrl(), accounts: ACCOUNTS });
    const port = Number(new URL(down.issuer).port);
    await putTestConnection("production", "nl_digid", { adapter: "oidc", settings: opSettings(down) });
    const t = await makeVerifyingApp(["nl_digid"], "production");
    // three end-users at the upstream, which then goes down before they come back
    const pending = [];
    for (let i = 0; i < 3; i++) pending.push(await signInAt(t, down, "nl_digid"));
    await down.close();
    for (const [i, { id, callback }] of pending.entries()) {
      const done = await completeUpstreamAuthentication(id, callback);
      expect(done).toMatchObject({ status: "failed", statusReason: "provider_unavailable" });
      expect((await connectionJson("nl_digid")).state).toBe(i < 2 ? "connected" : "failing");
    }
    expect((await connectionJson("nl_digid")).lastError).toMatch(/^provider_unavailable: /);
    const refused = await t.start({ providerId: "nl_digid", flowType: "redirect" });
    expect(refused.body.error?.code).toBe("PROVIDER_NOT_AVAILABLE");

    // still down: the job's check fails, the connection stays failing
    await runRecheckJob();
    expect((await connectionJson("nl_digid")).state).toBe("failing");

    // back on the same address: the next run clears it, sessions start again
    const back = await startUpstreamOp({ redirectUri: upstreamCallbackUrl(), accounts: ACCOUNTS, port });
    try {
      await runRecheckJob();
      const recovered = await connectionJson("nl_digid");
      expect(recovered.state).toBe("connected");
      expect((await t.start({ providerId: "nl_digid", flowType: "redirect" })).status).toBe(201);
      // and a success resets the streak: one more fault does not make it failing again
      const { id, callback } = await signInAt(t, back, "nl_digid");
      await duringOutage(back, id, callback);
      expect((await connectionJson("nl_digid")).state).toBe("connected");
    } finally {
      await back.close();
    }
  });
});

describe("disconnecting fails the provider's open sessions", () => {
  async function webhookAppWith(providerId: string) {
    const hooked = await makeWebhookApp({
      url: "https://receiver.example.test/hook",
      env: "production",
      events: ["verification.failed"],
    });
    await activateProviders(hooked.app.clientId, [providerId]);
    const creds = basic(hooked.app.clientId, hooked.app.clientSecret);
    const start = async (flowType = "redirect") => {
      const res = await call("POST", "/api/production/v1/verifications", {
        headers: creds,
        body: { providerId, flowType },
      });
      expect(res.status).toBe(201);
      return res.body.verificationId as string;
    };
    return { ...hooked, creds, start };
  }

  async function expectFailedUnavailable(id: string) {
    const row = await verificationRow(id);
    expect(row).toMatchObject({ status: "failed", statusReason: "provider_unavailable" });
    expect((await eventTypes(id)).slice(-2)).toEqual([
      "verification.user.authentication_failed",
      "verification.failed",
    ]);
    const failedEvent = await kysely()
      .selectFrom("verificationEvents")
      .selectAll()
      .where("verificationId", "=", id)
      .where("type", "=", "verification.failed")
      .executeTakeFirstOrThrow();
    expect(failedEvent.payload).toMatchObject({
      data: { event: { metadata: { reason: "provider_unavailable" } } },
    });
    // its webhook is queued like any other failure's
    const deliveries = await kysely()
      .selectFrom("webhookDeliveries")
      .selectAll()
      .where("eventId", "=", failedEvent.id)
      .execute();
    expect(deliveries).toHaveLength(1);
  }

  it("DELETE: waiting and authenticating sessions end failed; ended, sandbox and other providers' stay", async () => {
    const { start, app } = await webhookAppWith("at_id_austria");
    const waiting = await start();
    const authenticating = await start();
    await inTransaction(kysely(), (tx) => startAuthentication(tx, authenticating));
    const cancelled = await start();
    expect(
      (
        await call("DELETE", `/api/production/v1/verifications/${cancelled}`, {
          headers: basic(app.clientId, app.clientSecret),
        })
      ).status,
    ).toBe(204);
    const other = await makeVerifyingApp(["fr_franceconnect"], "production");
    const otherId = (await other.start({ providerId: "fr_franceconnect", flowType: "redirect" })).body
      .verificationId as string;
    const sandbox = await makeVerifyingApp(["at_id_austria"], "sandbox");
    const sandboxId = (await sandbox.start({ providerId: "at_id_austria", flowType: "redirect" })).body
      .verificationId as string;

    const connectionId = (await connectionJson("at_id_austria")).connectionId!;
    const deleted = await operatorCall("DELETE", "/at_id_austria");
    expect(deleted.status).toBe(204);

    await expectFailedUnavailable(waiting);
    await expectFailedUnavailable(authenticating);
    expect((await verificationRow(cancelled)).status).toBe("cancelled");
    expect((await verificationRow(otherId)).status).toBe("awaiting_user_action");
    expect((await verificationRow(sandboxId)).status).toBe("awaiting_user_action");
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", connectionId)
      .where("action", "=", "connection.deleted")
      .executeTakeFirstOrThrow();
    expect(audit.data).toMatchObject({ providerId: "at_id_austria", failedSessions: 2 });
  });

  it("PUT enabled:false fails them too; re-enabling fails nothing", async () => {
    const { start } = await webhookAppWith("uk_gov_one_login");
    const open = await start();
    const connectionId = (await connectionJson("uk_gov_one_login")).connectionId!;
    const settings = (await connectionJson("uk_gov_one_login")).settings!;
    const disabled = await operatorCall("PUT", "/uk_gov_one_login", {
      adapter: "oidc",
      enabled: false,
      settings,
    });
    expect(disabled.status).toBe(200);
    await expectFailedUnavailable(open);
    const audits = await updatesOf(connectionId);
    expect(audits.at(-1)!.data).toMatchObject({ enabled: false, changed: ["enabled"], failedSessions: 1 });

    const enabled = await operatorCall("PUT", "/uk_gov_one_login", {
      adapter: "oidc",
      enabled: true,
      settings,
    });
    expect(enabled.status).toBe(200);
    const again = await updatesOf(connectionId);
    expect(again.at(-1)!.data).not.toHaveProperty("failedSessions");
  });

  it("a PUT changing the adapter fails them too", async () => {
    await putTestConnection("production", "eudi_wallet", {
      adapter: "oidc",
      settings: UNREACHABLE_OIDC_SETTINGS,
    });
    const { start } = await webhookAppWith("eudi_wallet");
    const open = await start("redirect");
    const changed = await operatorCall("PUT", "/eudi_wallet", {
      adapter: "wallet",
      enabled: true,
      settings: {
        issuers: {
          "https://issuer.example.test": {
            keys: [
              {
                kty: "EC",
                crv: "P-256",
                x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
              },
            ],
          },
        },
        vct: ["urn:eudi:pid:1"],
      },
    });
    expect(changed.status).toBe(200);
    await expectFailedUnavailable(open);
  });
});
