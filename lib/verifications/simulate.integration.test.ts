/**
 * What a simulated session leaves behind, for every outcome of POST /v1/sandbox/verifications/{id}/simulate:
 * the answer (equal to the status read after it), the session row, its events in order (each
 * with the session as it saw it), their deliveries, its decision record, and the userinfo and
 * evidence of a completed one. Pins the in-memory change written in one statement
 * (transitions.ts) to what the per-transition writes before it produced.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { findProvider } from "../providers/catalog";
import { EVENT_TYPES } from "../webhooks/event-types";
import { bearer, call } from "../testing/router";
import { makeVerifyingApp, sessionEvents } from "../testing/verifications";
import { createWorkflow, workflowBody } from "../testing/workflows";
import { createVerification } from "./create";
import { countRows, inTransaction } from "../db/kysely";

type TApp = Awaited<ReturnType<typeof makeVerifyingApp>>;

const OPENING = ["verification.created", "verification.requested", "verification.workflow.started"];
const PASSPORT = findProvider("passport")!;
const CHANNEL = { type: PASSPORT.channel.type, transport: PASSPORT.channel.transport };

/** An app with passport and a match provider whose webhook subscribes to every event. */
async function setup(): Promise<TApp> {
  const t = await makeVerifyingApp(["passport", "bank_data_match"]);
  const hook = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}/webhook-config`, {
    headers: bearer(t.ws.keys.sandbox),
    body: { url: "https://hooks.example.com/idv", enabled: true, events: [...EVENT_TYPES] },
  });
  expect(hook.status).toBe(200);
  return t;
}

interface TPayload {
  event: string;
  eventId: string;
  timestamp: string;
  data: {
    status: string;
    updatedAt: string;
    event: { type: string; timestamp: string; metadata?: Record<string, unknown> };
    result?: unknown;
  };
}

function isPayload(value: unknown): value is TPayload {
  return typeof value === "object" && value !== null && "event" in value && "data" in value;
}

/** Session `id` as stored. */
const verificationRow = (id: string) =>
  kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** How many events session `id` has. */
const eventCount = (id: string) =>
  countRows(kysely().selectFrom("verificationEvents").where("verificationId", "=", id));

/** Simulates `body` on session `id`; checks what every outcome shares and returns what it left. */
async function simulated(t: TApp, id: string, body: Record<string, unknown>) {
  const res = await t.simulate(id, body);
  expect(res.status).toBe(200);
  // the answer is the status record, as a read after it gives it
  const status = await t.status(id);
  expect(status.body).toEqual(res.body);

  const row = await verificationRow(id);
  const events = await sessionEvents(id);
  const payloads = events.map((e) => {
    if (!isPayload(e.payload)) throw new Error(`event ${e.id} has no payload`);
    // each event row is its payload: same id, type and moment
    expect(e.payload).toMatchObject({
      event: e.type,
      eventId: e.id,
      apiVersion: "v1",
      clientId: t.app.clientId,
    });
    expect(e.payload.timestamp).toBe(e.createdAt.toISOString());
    expect(e.payload.data.event).toMatchObject({ type: e.type, timestamp: e.payload.timestamp });
    return e.payload;
  });
  // the session as each event saw it never goes back in time; the last saw it as it ended
  const updated = payloads.map((p) => p.data.updatedAt);
  expect([...updated].sort()).toEqual(updated);
  expect(updated.at(-1)).toBe(row.updatedAt.toISOString());
  expect(payloads.at(-1)!.data.status).toBe(row.status);

  // one delivery per event, with the event's body
  const deliveries =
    events.length === 0
      ? []
      : await kysely()
          .selectFrom("webhookDeliveries")
          .selectAll()
          .where(
            "eventId",
            "in",
            events.map((e) => e.id),
          )
          .execute();
  expect(deliveries).toHaveLength(events.length);
  for (const d of deliveries) {
    const event = events.find((e) => e.id === d.eventId)!;
    expect(d).toMatchObject({ eventType: event.type, url: "https://hooks.example.com/idv" });
    expect(JSON.parse(d.body)).toEqual(event.payload);
  }

  const decision =
    (await kysely()
      .selectFrom("verificationDecisions")
      .selectAll()
      .where("verificationId", "=", id)
      .executeTakeFirst()) ?? null;
  if (decision) {
    expect(decision).toMatchObject({
      appId: t.app.clientId,
      workspaceId: t.ws.workspaceId,
      environment: "sandbox",
      workflowId: row.workflowId,
      providerId: row.providerId,
      verificationNodeId: row.verificationNodeId,
      outcome: row.status,
      decidedAt: row.endedAt,
    });
  }
  return { res, row, payloads, decision };
}

const types = (payloads: TPayload[]) => payloads.map((p) => p.event);
const statuses = (payloads: TPayload[]) => payloads.map((p) => p.data.status);

describe("POST /v1/sandbox/verifications/{id}/simulate", () => {
  it("success: completed, with userinfo, evidence, three events after the opening ones and a decision", async () => {
    const t = await setup();
    const created = await t.start({ providerId: "passport" });
    const id: string = created.body.verificationId;
    const { res, row, payloads, decision } = await simulated(t, id, { outcome: "success" });

    expect(res.body).toEqual({
      verificationId: id,
      status: "completed",
      providerId: "passport",
      workflowId: t.app.defaultWorkflowId,
      flowType: "qr",
      createdAt: created.body.createdAt,
      expiresAt: created.body.expiresAt,
      verifiedAt: row.verifiedAt!.toISOString(),
      acr: "urn:idv:loa:2",
      service_loa: 2,
      service_loa_label: expect.any(String),
    });
    expect(row).toMatchObject({
      status: "completed",
      statusReason: null,
      loa: 2,
      subject: expect.any(String),
      upstreamEncrypted: null,
      matchDataEncrypted: null,
      personalDataDeletedAt: null,
      workflowVersion: 1,
    });
    expect(row.resultEncrypted).not.toBeNull();
    expect(row.evidenceEncrypted).not.toBeNull();
    // funnel stamps in the order the transitions made them; ended with the last
    const stamps = [row.createdAt, row.startedAt!, row.authenticatedAt!, row.verifiedAt!, row.endedAt!];
    expect(stamps.map((d) => d.getTime())).toEqual([...stamps.map((d) => d.getTime())].sort((a, b) => a - b));
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(row.endedAt!.getTime());

    expect(types(payloads)).toEqual([
      ...OPENING,
      "verification.user.authentication_started",
      "verification.user.authentication_succeeded",
      "verification.completed",
    ]);
    expect(statuses(payloads)).toEqual([
      "awaiting_user_action",
      "awaiting_user_action",
      "awaiting_user_action",
      "authenticating",
      "processing",
      "completed",
    ]);
    const [started, succeeded, completed] = payloads.slice(3);
    expect(started!.data.event.metadata).toEqual({ flowType: "qr" });
    expect(started!.data.result).toBeUndefined();
    const result = { loa: "urn:idv:loa:2", amr: ["passport"], channel: CHANNEL };
    expect(succeeded!.data.result).toEqual(result);
    expect(succeeded!.data.event.metadata).toBeUndefined();
    expect(completed!.data.result).toEqual(result);
    expect(completed!.data.event.metadata).toBeUndefined();

    expect(decision).toMatchObject({
      outcome: "completed",
      reasonCode: null,
      path: ["request", "verification", "response"],
      loa: 2,
      match: null,
      facts: {},
      workflowVersion: 1,
    });
    expect(decision!.claimsPresent).toEqual([
      "birthdate",
      "family_name",
      "gender",
      "given_name",
      "name",
      "nationality",
    ]);

    const userinfo = await t.userinfo(id);
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toMatchObject({
      sub: row.subject,
      amr: ["passport"],
      provider_id: "passport",
      service_loa: 2,
      acr: "urn:idv:loa:2",
      provenance: {
        presentation: { channel: CHANNEL, credentials: [{ type: "passport" }] },
        _metadata: { verification_id: id, verified_at: row.verifiedAt!.toISOString() },
      },
    });
    // the workflow's claims of what the source vouched for
    expect(Object.keys(userinfo.body.user).sort()).toEqual([
      "birthdate",
      "family_name",
      "given_name",
      "nationality",
    ]);
    const evidence = await t.evidence(id);
    expect(evidence.status).toBe(200);
    expect(evidence.body.names).toBe(Object.keys(evidence.body.token).join(";"));
  });

  it("failure: failed with the provider's reason, authentication failed then failed, a decision at the verification node", async () => {
    const t = await setup();
    const id: string = (await t.start({ providerId: "passport" })).body.verificationId;
    const { res, row, payloads, decision } = await simulated(t, id, { outcome: "failure" });

    expect(res.body).toMatchObject({ status: "failed", reason: "authentication_failed" });
    expect(res.body).not.toHaveProperty("verifiedAt");
    expect(res.body).not.toHaveProperty("acr");
    expect(row).toMatchObject({
      status: "failed",
      statusReason: "authentication_failed",
      loa: null,
      subject: null,
      resultEncrypted: null,
      evidenceEncrypted: null,
      upstreamEncrypted: null,
      authenticatedAt: null,
      verifiedAt: null,
      personalDataDeletedAt: null,
    });
    expect(row.startedAt!.getTime()).toBeLessThanOrEqual(row.endedAt!.getTime());
    expect(types(payloads).slice(3)).toEqual([
      "verification.user.authentication_started",
      "verification.user.authentication_failed",
      "verification.failed",
    ]);
    expect(statuses(payloads).slice(3)).toEqual(["authenticating", "failed", "failed"]);
    expect(payloads[4]!.data.event.metadata).toEqual({ reason: "authentication_failed" });
    expect(payloads[5]!.data.event.metadata).toEqual({ reason: "authentication_failed" });
    expect(payloads[4]!.data.result).toBeUndefined();
    expect(payloads[5]!.data.result).toBeUndefined();
    expect(decision).toMatchObject({
      outcome: "failed",
      reasonCode: "authentication_failed",
      path: ["request", "verification"],
      loa: null,
      claimsPresent: [],
      match: null,
      facts: {},
    });
  });

  it.each([
    ["cancel", "cancelled", "cancelled_by_user", "verification.workflow.cancelled", { cancelledBy: "user" }],
    ["expire", "expired", "session_timed_out", "verification.session.timed_out", undefined],
  ] as const)(
    "%s: %s, no decision, personal data as the rules say",
    async (outcome, state, reason, last, metadata) => {
      const t = await setup();
      const id: string = (
        await t.start({
          providerId: "bank_data_match",
          matchData: { given_name: "Max", family_name: "Mustermann" },
        })
      ).body.verificationId;
      expect((await verificationRow(id)).matchDataEncrypted).not.toBeNull();
      const { res, row, payloads, decision } = await simulated(t, id, { outcome });

      expect(res.body).toMatchObject({ status: state, reason });
      expect(row).toMatchObject({
        status: state,
        statusReason: reason,
        loa: null,
        matchDataEncrypted: null,
        upstreamEncrypted: null,
        authenticatedAt: null,
      });
      // cancel wipes the personal data and says when; expiry only what a running session needs
      if (state === "cancelled") expect(row.personalDataDeletedAt).toEqual(expect.any(Date));
      else expect(row.personalDataDeletedAt).toBeNull();
      expect(types(payloads).slice(3)).toEqual(["verification.user.authentication_started", last]);
      expect(statuses(payloads).slice(3)).toEqual(["authenticating", state]);
      expect(payloads[3]!.data.event.metadata).toEqual({ flowType: "redirect" });
      expect(payloads[4]!.data.event.metadata).toEqual(metadata);
      expect(decision).toBeNull();
      expect((await t.userinfo(id)).status).toBe(409);
    },
  );

  it("a check that rejects: failed with the check's reason and node, the LoA and claims in the decision", async () => {
    const t = await setup();
    const wf = await createWorkflow(t.ws.keys.sandbox, t.app.clientId, workflowBody());
    const id: string = (await t.start({ providerId: "passport", workflowId: wf.workflowId })).body
      .verificationId;
    const { res, row, payloads, decision } = await simulated(t, id, {
      outcome: "success",
      identity: "passport-low-loa",
    });

    expect(res.body).toMatchObject({ status: "failed", reason: "loa_too_low" });
    expect(row).toMatchObject({
      status: "failed",
      statusReason: "loa_too_low",
      loa: 1,
      subject: null,
      resultEncrypted: null,
      evidenceEncrypted: null,
      verifiedAt: null,
    });
    expect(row.authenticatedAt).toEqual(expect.any(Date));
    expect(types(payloads).slice(3)).toEqual([
      "verification.user.authentication_started",
      "verification.user.authentication_succeeded",
      "verification.failed",
    ]);
    expect(statuses(payloads).slice(3)).toEqual(["authenticating", "processing", "failed"]);
    const result = { loa: "urn:idv:loa:1", amr: ["passport"], channel: CHANNEL };
    expect(payloads[4]!.data.result).toEqual(result);
    expect(payloads[5]!.data).toMatchObject({
      result,
      event: { metadata: { reason: "loa_too_low", nodeId: "loa" } },
    });
    expect(decision).toMatchObject({
      outcome: "failed",
      reasonCode: "loa_too_low",
      path: ["start", "verify", "loa"],
      loa: 1,
      workflowId: wf.workflowId,
      workflowVersion: 1,
    });
    expect(decision!.claimsPresent.length).toBeGreaterThan(0);
  });

  it("a match provider: completed with the verdict in userinfo and as booleans in the decision", async () => {
    const t = await setup();
    const id: string = (
      await t.start({
        providerId: "bank_data_match",
        matchData: { given_name: "Max", family_name: "Mustermann" },
      })
    ).body.verificationId;
    const { res, row, decision } = await simulated(t, id, { outcome: "success" });

    expect(res.body.status).toBe("completed");
    // the match data stays with the completed session
    expect(row.matchDataEncrypted).not.toBeNull();
    const userinfo = await t.userinfo(id);
    expect(userinfo.body.match).toMatchObject({ matched: true });
    expect(userinfo.body.provenance._metadata.status).toBe("matched");
    expect(decision!.match).toMatchObject({ matched: true, fields: { given_name: true, family_name: true } });
    expect(JSON.stringify(decision)).not.toMatch(/Mustermann/);
  });

  it("an OpenID Provider session nobody acted on is announced first, as it was when created", async () => {
    const t = await setup();
    const created = await inTransaction(kysely(), (tx) =>
      createVerification(
        tx,
        { kind: "app", clientId: t.app.clientId, workspaceId: t.ws.workspaceId, environment: "sandbox" },
        { providerId: "passport" },
        { channel: "oidc" },
      ),
    );
    const id = created.verificationId;
    const { payloads } = await simulated(t, id, { outcome: "success" });

    expect(types(payloads)).toEqual([
      ...OPENING,
      "verification.user.authentication_started",
      "verification.user.authentication_succeeded",
      "verification.completed",
    ]);
    // the opening events tell the session as it was before the end-user acted
    for (const p of payloads.slice(0, 3)) {
      expect(p.data.status).toBe("awaiting_user_action");
      expect(p.data.updatedAt).toBe(created.createdAt);
    }
    expect(payloads[1]!.data.event.metadata).toEqual({ channel: "oidc", flowType: "qr" });
    expect(payloads[2]!.data.event.metadata).toEqual({ verificationNodeId: "verification", mode: "pii" });
  });

  it("a workflow changed meanwhile: checks and path of the planned version, a failure's path from the current one", async () => {
    const t = await setup();
    const wf = await createWorkflow(t.ws.keys.sandbox, t.app.clientId, workflowBody());
    const passing: string = (await t.start({ providerId: "passport", workflowId: wf.workflowId })).body
      .verificationId;
    const failing: string = (await t.start({ providerId: "passport", workflowId: wf.workflowId })).body
      .verificationId;
    // version 2: passport's LoA 2 is no longer enough, and the verification node has another id
    const patched = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}/workflows/${wf.workflowId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: {
        nodes: [
          { id: "start", type: "request", next: "verify2" },
          {
            id: "verify2",
            type: "verification",
            next: "loa",
            config: { channel: "api", claims: ["given_name", "family_name", "email"] },
          },
          { id: "loa", type: "check-min-loa", next: "end", config: { minLoa: 3 } },
          { id: "end", type: "response" },
        ],
      },
    });
    expect(patched.status).toBe(200);

    const passed = await simulated(t, passing, { outcome: "success" });
    expect(passed.res.body.status).toBe("completed");
    expect(passed.decision).toMatchObject({ workflowVersion: 1, path: ["start", "verify", "loa", "end"] });

    const failed = await simulated(t, failing, { outcome: "failure" });
    expect(failed.res.body.status).toBe("failed");
    // the current workflow no longer leads passport to "verify": the path starts there
    expect(failed.decision).toMatchObject({ workflowVersion: 1, path: ["verify"] });
  });

  it("refuses another app's session (404), an ended one (400) and an unknown identity (400), changing nothing", async () => {
    const t = await setup();
    const other = await setup();
    const id: string = (await t.start({ providerId: "passport" })).body.verificationId;
    const foreign = await other.simulate(id, { outcome: "success" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const unknown = await t.simulate(id, { outcome: "success", identity: "nobody" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([{ path: "identity", message: expect.any(String) }]);
    expect(await eventCount(id)).toBe(3);
    expect((await t.simulate(id, { outcome: "failure" })).status).toBe(200);
    const again = await t.simulate(id, { outcome: "success" });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("VERIFICATION_TERMINAL");
    expect(await eventCount(id)).toBe(6);
  });
});
