/**
 * Sessions driven through the App API and the sandbox test helper, with every event delivered to
 * a real HTTP receiver: the exact sequence, signed and verified, for every flow type, both
 * models and every end state; retries against a failing receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../webhooks/event-types";
import { waitFor } from "../testing/jobs";
import { activateProviders } from "../testing/verifications";
import { basic, call } from "../testing/router";
import { startWebhookReceiver, type TWebhookReceiver } from "../testing/webhook-receiver";
import { makeWebhookApp, setUpWebhookDeliveryTests } from "../testing/webhooks";

setUpWebhookDeliveryTests();

let receiver: TWebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const OPENING = ["verification.created", "verification.requested", "verification.workflow.started"];

async function session(path: string, providers: string[]) {
  const hook = await makeWebhookApp({ url: receiver.urlFor(path), events: [...EVENT_TYPES], signed: true });
  await activateProviders(hook.app.clientId, providers);
  const creds = basic(hook.app.clientId, hook.app.clientSecret);
  const received = () => receiver.requests.filter((r) => r.path === path);
  return {
    ...hook,
    creds,
    start: (body: Record<string, unknown>) =>
      call("POST", "/api/sandbox/v1/verifications", { headers: creds, body }),
    simulate: (id: string, body: Record<string, unknown>) =>
      call("POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, { headers: creds, body }),
    cancel: (id: string) => call("DELETE", `/api/sandbox/v1/verifications/${id}`, { headers: creds }),
    /** waits for `n` events of the session at the receiver (signature checked with the app's secret) */
    events: async (verificationId: string, n: number) => {
      const mine = () =>
        received().filter(
          (r) =>
            r.event?.data && (r.event.data as { verificationId?: string }).verificationId === verificationId,
        );
      await waitFor(async () => mine().length >= n || undefined, 15_000);
      return mine();
    },
  };
}

describe("events of real sessions at a real receiver", () => {
  it.each([
    ["passport", "qr", "success", undefined, "completed"],
    ["nl_digid", "redirect", "failure", undefined, "failed"],
    ["dk_mitid", "push", "cancel", undefined, "cancelled"],
    ["eudi_wallet", "dc", "expire", undefined, "expired"],
  ])("%s over %s, outcome %s", async (providerId, flowType, outcome, identity, endState) => {
    const path = `/hooks/${providerId}-${outcome}`;
    const t = await session(path, [providerId]);
    receiver.setSecret(t.secret);
    const created = await t.start({ providerId, flowType });
    expect(created.status).toBe(201);
    const id = created.body.verificationId as string;
    const sim = await t.simulate(id, { outcome, ...(identity ? { identity } : {}) });
    expect(sim.body.status).toBe(endState);

    const tail: Record<string, string[]> = {
      completed: [
        "verification.user.authentication_started",
        "verification.user.authentication_succeeded",
        "verification.completed",
      ],
      failed: [
        "verification.user.authentication_started",
        "verification.user.authentication_failed",
        "verification.failed",
      ],
      cancelled: ["verification.user.authentication_started", "verification.workflow.cancelled"],
      expired: ["verification.user.authentication_started", "verification.session.timed_out"],
    };
    const expected = [...OPENING, ...tail[endState]!];
    const got = await t.events(id, expected.length);
    // deliveries run concurrently; the envelope's timestamp and emission order tell the sequence
    const ordered = [...got].sort(
      (a, b) =>
        a.event!.timestamp.localeCompare(b.event!.timestamp) ||
        a.event!.eventId.localeCompare(b.event!.eventId),
    );
    expect(ordered.map((r) => r.event!.event)).toEqual(expected);
    for (const r of got) {
      expect(r.signatureValid).toBe(true);
      expect(r.event).toMatchObject({ apiVersion: "v1", clientId: t.app.clientId });
      expect(r.event!.eventId).toMatch(/^evt_/);
      expect(r.event!.data).toMatchObject({ verificationId: id, providerId, status: expect.any(String) });
      expect((r.event!.data as { event: { type: string } }).event.type).toBe(r.event!.event);
    }
    const last = ordered.at(-1)!.event!.data as { status: string; result?: { loa: string; amr: string[] } };
    expect(last.status).toBe(endState);
    if (endState === "completed")
      expect(last.result).toMatchObject({ loa: "urn:idv:loa:2", amr: [providerId] });
    // nothing personal in any event
    for (const r of got) expect(r.body).not.toMatch(/given_name|birthdate|family_name/);
  });

  it("a match session and an integrator cancel", async () => {
    const path = "/hooks/match";
    const t = await session(path, ["bank_data_match"]);
    receiver.setSecret(t.secret);
    const matched = await t.start({
      providerId: "bank_data_match",
      matchData: { given_name: "Max", family_name: "Mustermann" },
    });
    await t.simulate(matched.body.verificationId, { outcome: "success" });
    const got = await t.events(matched.body.verificationId, 6);
    expect(got.map((r) => r.event!.event)).toContain("verification.completed");
    expect(got.every((r) => r.signatureValid)).toBe(true);

    const cancelled = await t.start({ providerId: "passport" });
    expect((await t.cancel(cancelled.body.verificationId)).status).toBe(204);
    const cancelEvents = await t.events(cancelled.body.verificationId, 4);
    expect(cancelEvents.map((r) => r.event!.event).sort()).toEqual(
      [...OPENING, "verification.workflow.cancelled"].sort(),
    );
  });

  it("retries against a failing receiver until it accepts", async () => {
    const path = "/hooks/flaky";
    const t = await session(path, []);
    receiver.setSecret(t.secret);
    let failures = 0;
    receiver.respond((r) => {
      if (r.path === path && r.event?.event === "verification.created" && failures < 2) {
        failures += 1;
        return { status: 503 };
      }
      return undefined;
    });
    const created = await t.start({ providerId: "passport" });
    const id = created.body.verificationId as string;
    await waitFor(async () => {
      const arrivals = receiver.requests.filter(
        (r) => r.path === path && r.event?.event === "verification.created",
      );
      return arrivals.length >= 3 || undefined;
    }, 15_000);
    const arrivals = receiver.requests.filter(
      (r) => r.path === path && r.event?.event === "verification.created",
    );
    // the same event (same eventId) three times: two refused, the third accepted
    expect(new Set(arrivals.map((r) => r.event!.eventId)).size).toBe(1);
    const log = await call("GET", `/api/sandbox/v1/apps/${t.app.clientId}/webhook-deliveries`, {
      headers: { authorization: `Bearer ${t.key}` },
    });
    const createdDelivery = log.body.data.find(
      (d: { eventType: string }) => d.eventType === "verification.created",
    );
    await waitFor(async () => {
      const d = await call(
        "GET",
        `/api/sandbox/v1/apps/${t.app.clientId}/webhook-deliveries/${createdDelivery.deliveryId}`,
        {
          headers: { authorization: `Bearer ${t.key}` },
        },
      );
      return d.body.status === "succeeded" ? d : undefined;
    }, 10_000).then((d) => {
      expect(d.body.attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([
        503, 503, 200,
      ]);
    });
    expect(id).toMatch(/^ver_/);
    receiver.respond(() => undefined);
  });
});
