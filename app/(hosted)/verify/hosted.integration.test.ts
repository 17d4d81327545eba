// The hosted and simulator pages' route handlers, called in-process against the real database.
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { makeOperator } from "@/lib/testing/factories";
import { requestProductionTest, scheduleProductionTest } from "@/lib/testing/production-tests";
import { bearer, call } from "@/lib/testing/router";
import { eventTypes, makeVerifyingApp, sessionEvents } from "@/lib/testing/verifications";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";

const form = (fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", ...extra },
  rawBody: new URLSearchParams(fields).toString(),
});

async function session(
  providerId: string,
  body: Record<string, unknown> = {},
  env: "sandbox" | "production" = "sandbox",
) {
  const app = await makeVerifyingApp([providerId], env);
  await kysely()
    .updateTable("apps")
    .set({ redirectUris: ["https://shop.example/return"], updatedAt: new Date() })
    .where("id", "=", app.app.clientId)
    .execute();
  const started = await app.start({ providerId, ...body });
  expect(started.status).toBe(201);
  return { app, id: started.body.verificationId as string };
}

const OPENING = ["verification.created", "verification.requested", "verification.workflow.started"];

/** A sandbox session of an app whose webhook subscribes to every event. */
async function subscribedSession(providerId: string, body: Record<string, unknown> = {}) {
  const app = await makeVerifyingApp([providerId]);
  const hook = await call("PATCH", `/api/sandbox/v1/apps/${app.app.clientId}/webhook-config`, {
    headers: bearer(app.ws.keys.sandbox),
    body: { url: "https://hooks.example.com/idv", enabled: true, events: [...EVENT_TYPES] },
  });
  expect(hook.status).toBe(200);
  const started = await app.start({ providerId, ...body });
  expect(started.status).toBe(201);
  return { app, id: started.body.verificationId as string };
}

/** The session's events in order, each with the status it saw, and the event types delivered. */
async function eventsAndDeliveries(id: string) {
  const events = await sessionEvents(id);
  const eventIds = events.map((e) => e.id);
  const deliveries =
    eventIds.length === 0
      ? []
      : await kysely()
          .selectFrom("webhookDeliveries")
          .select(["eventId", "eventType"])
          .where("eventId", "in", eventIds)
          .execute();
  return {
    seen: events.map((e) => [e.type, JSON.parse(JSON.stringify(e.payload)).data.status as string]),
    delivered: events.map((e) => deliveries.filter((d) => d.eventId === e.id).map((d) => d.eventType)),
  };
}

/** The session's row as stored. */
const verification = (id: string) =>
  kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const statusOf = async (id: string) =>
  (await kysely().selectFrom("verifications").select("status").where("id", "=", id).executeTakeFirstOrThrow())
    .status;

describe("GET /verify/{id}/status", () => {
  it("is the status without personal data, then — for the page's own browser — where to go once ended", async () => {
    const { id } = await session("passport", { redirect_uri: "https://shop.example/return", state: "s1" });
    const browser = new CookieJar();
    // the hosted page sends the first browser that opens it through /bind
    expect((await browser.call("GET", `/verify/${id}/bind`)).headers.getSetCookie()).toHaveLength(1);
    const open = await browser.call("GET", `/verify/${id}/status`);
    expect(open.status).toBe(200);
    expect(open.body).toEqual({ status: "awaiting_user_action" });
    expect(open.headers.get("cache-control")).toContain("no-store");

    expect((await call("POST", `/verify/${id}/cancel`, form({}))).status).toBe(303);
    const ended = await browser.call("GET", `/verify/${id}/status`);
    expect(ended.body.status).toBe("cancelled");
    expect(ended.body.reason).toBe("cancelled_by_user");
    expect(ended.body.next).toBe(`/verify/${id}/return`);
    // another browser sees the same status, without anywhere to go
    expect((await call("GET", `/verify/${id}/status`)).body).toEqual({
      status: "cancelled",
      reason: "cancelled_by_user",
    });
    const returned = await browser.call("GET", ended.body.next);
    const next = new URL(returned.headers.get("location")!);
    expect(`${next.origin}${next.pathname}`).toBe("https://shop.example/return");
    expect(next.searchParams.get("status")).toBe("cancelled");
    expect(next.searchParams.get("state")).toBe("s1");
  });

  it("is 404 for unknown and malformed ids", async () => {
    expect((await call("GET", "/verify/ver_0000000000000000000000000/status")).status).toBe(404);
    expect((await call("GET", "/verify/not-an-id/status")).status).toBe(404);
  });
});

describe("POST /verify/{id}/cancel", () => {
  it("cancels as the end-user (verification.workflow.cancelled, by user)", async () => {
    const { id } = await session("passport");
    const response = await call("POST", `/verify/${id}/cancel`, form({}));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/verify/${id}`);
    expect(await statusOf(id)).toBe("cancelled");
    const event = await kysely()
      .selectFrom("verificationEvents")
      .selectAll()
      .where("verificationId", "=", id)
      .where("type", "=", "verification.workflow.cancelled")
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(event.payload)).toContain('"cancelledBy":"user"');
    // a second Cancel of the ended session changes nothing
    expect((await call("POST", `/verify/${id}/cancel`, form({}))).status).toBe(303);
    expect((await eventTypes(id)).filter((t) => t === "verification.workflow.cancelled")).toHaveLength(1);
  });

  it("refuses a cross-site post and writes nothing", async () => {
    const { id } = await session("passport");
    const before = await eventTypes(id);
    const bySite = await call("POST", `/verify/${id}/cancel`, form({}, { "sec-fetch-site": "cross-site" }));
    expect(bySite.status).toBe(403);
    const byOrigin = await call("POST", `/verify/${id}/cancel`, {
      headers: { origin: "https://evil.example", host: "localhost:3000" },
    });
    expect(byOrigin.status).toBe(403);
    expect(await statusOf(id)).toBe("awaiting_user_action");
    expect(await eventTypes(id)).toEqual(before);
  });

  it("wipes the personal data, stamps the end and delivers the event; 404 for an unknown session", async () => {
    const { id } = await subscribedSession("passport");
    expect((await call("POST", `/verify/${id}/cancel`, form({}))).status).toBe(303);
    const row = await verification(id);
    expect(row).toMatchObject({
      status: "cancelled",
      statusReason: "cancelled_by_user",
      matchDataEncrypted: null,
    });
    expect(row.endedAt).toEqual(row.updatedAt);
    expect(row.personalDataDeletedAt).not.toBeNull();
    expect(await eventsAndDeliveries(id)).toEqual({
      seen: [
        ...OPENING.map((t) => [t, "awaiting_user_action"]),
        ["verification.workflow.cancelled", "cancelled"],
      ],
      delivered: [...OPENING.map((t) => [t]), ["verification.workflow.cancelled"]],
    });
    const unknown = await call("POST", "/verify/ver_0000000000000000000000000/cancel", form({}));
    expect(unknown.status).toBe(404);
  });
});

describe("GET /verify/{id}/start", () => {
  it("moves a sandbox session to authenticating once, with its event delivered, and leaves an ended one alone", async () => {
    const { id } = await subscribedSession("de_eid", { flowType: "redirect" });
    const started = await call("GET", `/verify/${id}/start`);
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toBe(`/sandbox/verify/${id}?flow=redirect`);
    const row = await verification(id);
    expect(row.status).toBe("authenticating");
    expect(row.startedAt).not.toBeNull();
    const once = await eventsAndDeliveries(id);
    expect(once).toEqual({
      seen: [
        ...OPENING.map((t) => [t, "awaiting_user_action"]),
        ["verification.user.authentication_started", "authenticating"],
      ],
      delivered: [...OPENING.map((t) => [t]), ["verification.user.authentication_started"]],
    });
    // the end-user comes back and leaves again: still authenticating, nothing more written
    expect((await call("GET", `/verify/${id}/start`)).status).toBe(303);
    expect(await verification(id)).toEqual(row);
    expect(await eventsAndDeliveries(id)).toEqual(once);

    expect((await call("POST", `/verify/${id}/cancel`, form({}))).status).toBe(303);
    const ended = await verification(id);
    expect((await call("GET", `/verify/${id}/start`)).status).toBe(303);
    expect(await verification(id)).toEqual(ended);
  });
});

describe("POST /verify/{id}/push", () => {
  it("refuses an identifier that does not fit, with a flag and not the value in the URL", async () => {
    const { id } = await session("digital_id_app", { flowType: "push" });
    const response = await call("POST", `/verify/${id}/push`, form({ identifier: "12ab" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/verify/${id}?error=identifier`);
    expect(await statusOf(id)).toBe("awaiting_user_action");
    const row = await verification(id);
    expect(row.upstreamEncrypted).toBeNull();
  });

  it("takes a valid identifier sealed and moves the session to authenticating", async () => {
    const { id } = await session("digital_id_app", { flowType: "push" });
    const response = await call("POST", `/verify/${id}/push`, form({ identifier: "+33 612 345 678" }));
    expect(response.headers.get("location")).toBe(`/verify/${id}`);
    const row = await verification(id);
    expect(row.status).toBe("authenticating");
    expect(row.upstreamEncrypted).not.toContain("612");
    expect(await eventTypes(id)).toContain("verification.user.authentication_started");
  });

  it("seals the identifier with the start in one change; an ended session stays as it is; not a push session: 409", async () => {
    const { id } = await subscribedSession("digital_id_app", { flowType: "push" });
    expect((await call("POST", `/verify/${id}/push`, form({ identifier: "+33 612 345 678" }))).status).toBe(
      303,
    );
    const row = await verification(id);
    expect(row.upstreamEncrypted).not.toBeNull();
    expect(row.startedAt).not.toBeNull();
    expect(await eventsAndDeliveries(id)).toEqual({
      seen: [
        ...OPENING.map((t) => [t, "awaiting_user_action"]),
        ["verification.user.authentication_started", "authenticating"],
      ],
      delivered: [...OPENING.map((t) => [t]), ["verification.user.authentication_started"]],
    });

    expect((await call("POST", `/verify/${id}/cancel`, form({}))).status).toBe(303);
    const ended = await verification(id);
    const again = await call("POST", `/verify/${id}/push`, form({ identifier: "+33 612 345 679" }));
    expect(again.headers.get("location")).toBe(`/verify/${id}`);
    expect(await verification(id)).toEqual(ended);

    const redirect = await session("de_eid", { flowType: "redirect" });
    const refused = await call(
      "POST",
      `/verify/${redirect.id}/push`,
      form({ identifier: "+33 612 345 678" }),
    );
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("is not a push session");
    expect(await statusOf(redirect.id)).toBe("awaiting_user_action");
  });
});

describe("POST /sandbox/verify/{id}/act", () => {
  it("approves through simulateSession and sends a redirect flow back to the hosted page", async () => {
    const { id } = await session("de_eid", { flowType: "redirect" });
    const response = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "success", flow: "redirect" }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/verify/${id}`);
    expect(await statusOf(id)).toBe("completed");
    expect(await eventTypes(id)).toEqual(
      expect.arrayContaining(["verification.user.authentication_succeeded", "verification.completed"]),
    );
  });

  it("answers a second-screen flow with the done view", async () => {
    const { id } = await session("passport");
    const response = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "failure", flow: "qr" }),
    );
    expect(response.headers.get("location")).toBe(`/sandbox/verify/${id}?flow=qr&done=1`);
    expect(await statusOf(id)).toBe("failed");
  });

  it("refuses an unknown outcome or identity and writes nothing", async () => {
    const { id } = await session("passport");
    const before = await eventTypes(id);
    const badOutcome = await call("POST", `/sandbox/verify/${id}/act`, form({ outcome: "teleport" }));
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.text).toContain("outcome");
    const badIdentity = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "success", identity: "nobody" }),
    );
    expect(badIdentity.status).toBe(400);
    expect(badIdentity.text).toContain("identity");
    expect(await statusOf(id)).toBe("awaiting_user_action");
    expect(await eventTypes(id)).toEqual(before);
  });

  it("does not exist for production sessions", async () => {
    const { id } = await session("passport", {}, "production");
    const response = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "success", flow: "qr" }),
    );
    expect(response.status).toBe(404);
    expect(await statusOf(id)).toBe("awaiting_user_action");
  });

  it("completes a started session: its events in order, each delivered, and its decision; a second press changes nothing", async () => {
    const { id } = await subscribedSession("de_eid", { flowType: "redirect" });
    expect((await call("GET", `/verify/${id}/start`)).status).toBe(303);
    const act = () =>
      call("POST", `/sandbox/verify/${id}/act`, form({ outcome: "success", flow: "redirect" }));
    expect((await act()).status).toBe(303);
    const row = await verification(id);
    expect(row.status).toBe("completed");
    expect(row.resultEncrypted).not.toBeNull();
    expect(row.endedAt).toEqual(row.updatedAt);
    const done = await eventsAndDeliveries(id);
    const after = [
      ["verification.user.authentication_started", "authenticating"],
      ["verification.user.authentication_succeeded", "processing"],
      ["verification.completed", "completed"],
    ];
    expect(done).toEqual({
      seen: [...OPENING.map((t) => [t, "awaiting_user_action"]), ...after],
      delivered: [...OPENING, ...after.map(([t]) => t!)].map((t) => [t]),
    });
    const decision = await kysely()
      .selectFrom("verificationDecisions")
      .selectAll()
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(decision).toMatchObject({ outcome: "completed", providerId: "de_eid", decidedAt: row.endedAt });

    // the session ended: the page shows it, nothing is written
    expect((await act()).status).toBe(303);
    expect(await verification(id)).toEqual(row);
    expect(await eventsAndDeliveries(id)).toEqual(done);
  });

  it("records a production-test session's participation with its outcome; its cancel records none", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const operator = await makeOperator();
    const requested = await requestProductionTest(t.ws.keys.sandbox, t.app.clientId);
    const { challenge } = await scheduleProductionTest(operator.operatorKey, requested.request.id);
    const start = async () => {
      const started = await t.start({ providerId: "passport", challengeId: challenge.id });
      expect(started.status).toBe(201);
      return started.body.verificationId as string;
    };
    const participations = () =>
      kysely()
        .selectFrom("productionTestParticipations")
        .selectAll()
        .where("challengeId", "=", challenge.id)
        .execute();

    const completed = await start();
    const act = await call(
      "POST",
      `/sandbox/verify/${completed}/act`,
      form({ outcome: "success", flow: "qr" }),
    );
    expect(act.status).toBe(303);
    expect(await statusOf(completed)).toBe("completed");
    expect(await participations()).toEqual([
      expect.objectContaining({ verificationId: completed, successful: true, claimed: true }),
    ]);

    const cancelled = await start();
    expect((await call("POST", `/verify/${cancelled}/cancel`, form({}))).status).toBe(303);
    expect(await statusOf(cancelled)).toBe("cancelled");
    expect(await participations()).toHaveLength(1);
  });
});
