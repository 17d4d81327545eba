import { describe, expect, it } from "vitest";
import { STATE_CONFLICT_CODE } from "@/lib/activation/state-machine";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { allOperatorTickets, validValues } from "@/lib/testing/activation";
import { makeApp, makeOperator, makeWorkspace } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

function ticketRow(id: string) {
  return kysely().selectFrom("activationTickets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

function ticketCount(appId: string): Promise<number> {
  return countRows(kysely().selectFrom("activationTickets").where("appId", "=", appId));
}

type Env = "sandbox" | "production";

async function setup(env: Env = "sandbox") {
  const ws = await makeWorkspace();
  const key = env === "sandbox" ? ws.keys.sandbox : ws.keys.production;
  const app = await makeApp(key, env);
  const operator = await makeOperator();
  const submit = async (providerId = "nl_digid", values = validValues(providerId)) => {
    const res = await call("POST", `/api/${env}/v1/apps/${app.clientId}/activation`, {
      headers: bearer(key),
      body: { providers: { [providerId]: values } },
    });
    expect(res.status).toBe(200);
    return res.body[0].activation.id as string;
  };
  const act = (ticketId: string, step: string, body?: unknown, opKey = operator.operatorKey, onEnv = env) =>
    call("POST", `/api/${onEnv}/v1/operator/activations/${ticketId}/${step}`, {
      headers: bearer(opKey),
      body,
    });
  const entry = async (providerId = "nl_digid") =>
    (
      await call("GET", `/api/${env}/v1/apps/${app.clientId}/providers?include=activation`, {
        headers: bearer(key),
      })
    ).body.find((p: { id: string }) => p.id === providerId);
  return { ws, key, app, operator, submit, act, entry };
}

describe("Operator activation review", () => {
  it("lists requested tickets, then review → approve activates the provider", async () => {
    const { ws, app, operator, submit, act, entry } = await setup();
    const values = validValues("nl_digid", { displayName: "Acme" });
    const ticketId = await submit("nl_digid", values);

    const queue = await allOperatorTickets(operator.operatorKey, "sandbox");
    const listed = queue.find((t) => t.id === ticketId);
    expect(listed).toMatchObject({
      status: "activation_requested",
      clientId: app.clientId,
      workspaceId: ws.workspaceId,
      environment: "sandbox",
      providerId: "nl_digid",
      providerName: "DigiD",
      activationKind: "registration",
      demo: false,
      submitted: { ...values },
      requestedAt: expect.any(String),
      reviewStartedAt: null,
      activatedAt: null,
      rejectedAt: null,
    });
    expect(queue.every((t) => t.status === "activation_requested")).toBe(true);

    const review = await act(ticketId, "review");
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({
      id: ticketId,
      status: "activation_processing",
      reviewStartedAt: expect.any(String),
      reviewerUserId: operator.userId,
    });
    expect((await entry()).status).toBe("activation_processing");
    expect((await allOperatorTickets(operator.operatorKey, "sandbox")).some((t) => t.id === ticketId)).toBe(
      false,
    );
    const processing = await allOperatorTickets(operator.operatorKey, "sandbox", "activation_processing");
    expect(processing.map((t) => t.id)).toContain(ticketId);

    const approve = await act(ticketId, "approve");
    expect(approve.status).toBe(200);
    expect(approve.body).toMatchObject({ status: "activated", activatedAt: expect.any(String) });
    const after = await entry();
    expect(after).toMatchObject({ status: "activated", isActive: true, enabled: true, needAction: false });
    expect(after.activation).toMatchObject({
      id: ticketId,
      status: "activated",
      activatedAt: approve.body.activatedAt,
    });

    const row = await kysely()
      .selectFrom("appProviders")
      .selectAll()
      .where("appId", "=", app.clientId)
      .where("providerId", "=", "nl_digid")
      .executeTakeFirstOrThrow();
    expect(row.config).toEqual(values);
    const audits = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", ticketId)
      .orderBy("createdAt", "asc")
      .execute();
    expect(audits.map((a) => a.action)).toEqual([
      "activation.submitted",
      "activation.review_started",
      "activation.approved",
    ]);
    for (const a of audits.slice(1)) {
      expect(a).toMatchObject({
        actorType: "operator",
        actorId: operator.userId,
        workspaceId: ws.workspaceId,
      });
    }
  });

  it("review → reject shows the reason; the integrator resubmits with a new ticket", async () => {
    const { operator, submit, act, entry } = await setup();
    const first = await submit();
    expect((await act(first, "review")).status).toBe(200);
    const reject = await act(first, "reject", {
      reason: "  Registration number not found in the KvK register ",
    });
    expect(reject.status).toBe(200);
    expect(reject.body).toMatchObject({
      status: "rejected",
      rejectedAt: expect.any(String),
      rejectionReason: "Registration number not found in the KvK register",
      reviewerUserId: operator.userId,
    });
    const rejected = await entry();
    expect(rejected).toMatchObject({ status: "rejected", isActive: false });
    expect(rejected.activation).toMatchObject({
      id: first,
      status: "rejected",
      rejectedAt: reject.body.rejectedAt,
      rejectionReason: "Registration number not found in the KvK register",
    });
    expect(
      (await allOperatorTickets(operator.operatorKey, "sandbox", "rejected")).map((t) => t.id),
    ).toContain(first);

    const second = await submit("nl_digid", validValues("nl_digid", { registrationNumber: "KVK 87654321" }));
    expect(second).not.toBe(first);
    const resubmitted = await entry();
    expect(resubmitted.status).toBe("activation_requested");
    expect(resubmitted.activation.id).toBe(second);
    expect(resubmitted.activation).not.toHaveProperty("rejectedAt");
    expect(resubmitted.activation).not.toHaveProperty("rejectionReason");
    const reg = resubmitted.activation.requirements.find(
      (r: { id: string }) => r.id === "registrationNumber",
    );
    expect(reg.submittedValue).toBe("KVK 87654321");
    // the old ticket stays rejected
    expect((await ticketRow(first)).status).toBe("rejected");
  });

  it("refuses moves the transition table does not allow, naming the current status", async () => {
    const { submit, act } = await setup();
    const ticketId = await submit();
    const cases: Array<[string, unknown, string]> = [
      ["approve", undefined, "activation_requested"],
      ["reject", { reason: "no" }, "activation_requested"],
    ];
    for (const [step, body, status] of cases) {
      const res = await act(ticketId, step, body);
      expect(res.status, step).toBe(409);
      expect(res.body.error.code).toBe(STATE_CONFLICT_CODE);
      expect(res.body.error.message).toContain(status);
      expect(res.body.error.details).toEqual([{ path: "ticket_id", message: `status is ${status}` }]);
    }
    expect((await act(ticketId, "review")).status).toBe(200);
    const twice = await act(ticketId, "review");
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toContain("activation_processing");
    expect((await act(ticketId, "approve")).status).toBe(200);
    for (const step of ["review", "approve"]) {
      const res = await act(ticketId, step);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toContain("activated");
    }
    const rejectActivated = await act(ticketId, "reject", { reason: "late" });
    expect(rejectActivated.status).toBe(409);
    const ticket = await ticketRow(ticketId);
    expect(ticket).toMatchObject({ status: "activated", rejectedAt: null, rejectionReason: null });
  });

  it.each([
    [undefined, "(body)"],
    [{}, "reason"],
    [{ reason: "" }, "reason"],
    [{ reason: "   " }, "reason"],
    [{ reason: 5 }, "reason"],
    [{ reason: "x".repeat(501) }, "reason"],
    [{ reason: "ok", extra: 1 }, "extra"],
  ])("refuses the reject body %j naming the field", async (body, field) => {
    const { submit, act } = await setup();
    const ticketId = await submit();
    await act(ticketId, "review");
    const res = await act(ticketId, "reject", body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect((await ticketRow(ticketId)).status).toBe("activation_processing");
  });

  it("accepts a 500-character reason", async () => {
    const { submit, act } = await setup();
    const ticketId = await submit();
    await act(ticketId, "review");
    const res = await act(ticketId, "reject", { reason: "x".repeat(500) });
    expect(res.status).toBe(200);
  });

  it("refuses a body on review and approve", async () => {
    const { submit, act } = await setup();
    const ticketId = await submit();
    const res = await act(ticketId, "review", { force: true });
    expect(res.status).toBe(400);
    expect((await ticketRow(ticketId)).status).toBe("activation_requested");
  });

  it("filters by status and refuses other values", async () => {
    const { operator } = await setup();
    for (const status of ["activation_requested", "activation_processing", "rejected", "activated"]) {
      const res = await call("GET", `/api/sandbox/v1/operator/activations?status=${status}`, {
        headers: bearer(operator.operatorKey),
      });
      expect(res.status).toBe(200);
      expect(res.body.data.every((t: { status: string }) => t.status === status)).toBe(true);
    }
    for (const qs of ["status=not_activated", "status=pending", "limit=0", "limit=101", "offset=-1"]) {
      const res = await call("GET", `/api/sandbox/v1/operator/activations?${qs}`, {
        headers: bearer(operator.operatorKey),
      });
      expect(res.status, qs).toBe(400);
      expect(res.body.error.details[0].path).toBe(qs.split("=")[0]);
    }
  });

  it("acts across workspaces but only within the URL's environment", async () => {
    const a = await setup();
    const b = await setup();
    const ta = await a.submit();
    const tb = await b.submit("dk_mitid");
    const prod = await setup("production");
    const tp = await prod.submit();

    const sandboxQueue = (await allOperatorTickets(a.operator.operatorKey, "sandbox")).map((t) => t.id);
    expect(sandboxQueue).toEqual(expect.arrayContaining([ta, tb]));
    expect(sandboxQueue).not.toContain(tp);
    const prodQueue = (await allOperatorTickets(a.operator.operatorKey, "production")).map((t) => t.id);
    expect(prodQueue).toContain(tp);
    expect(prodQueue).not.toContain(ta);

    // one operator reviews tickets of two workspaces
    expect((await a.act(tb, "review")).status).toBe(200);
    const crossEnv = await a.act(ta, "review", undefined, a.operator.operatorKey, "production");
    expect(crossEnv.status).toBe(404);
    expect(crossEnv.body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect((await ticketRow(ta)).status).toBe("activation_requested");
    const unknown = await a.act("act_01HZZZZZZZZZZZZZZZZZZZZZZZ", "review");
    expect(unknown.status).toBe(404);
  });

  it("hides tickets of deleted apps", async () => {
    const { key, app, operator, submit, act } = await setup();
    const ticketId = await submit();
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(key) });
    expect((await allOperatorTickets(operator.operatorKey, "sandbox")).map((t) => t.id)).not.toContain(
      ticketId,
    );
    expect((await act(ticketId, "review")).status).toBe(404);
  });

  it("refuses workspace keys and missing keys with 401 INVALID_OPERATOR_KEY", async () => {
    const { key, submit } = await setup();
    const ticketId = await submit();
    const requests: Array<[string, string, unknown]> = [
      ["GET", "/api/sandbox/v1/operator/activations", undefined],
      ["POST", `/api/sandbox/v1/operator/activations/${ticketId}/review`, undefined],
      ["POST", `/api/sandbox/v1/operator/activations/${ticketId}/approve`, undefined],
      ["POST", `/api/sandbox/v1/operator/activations/${ticketId}/reject`, { reason: "x" }],
      ["POST", "/api/sandbox/v1/operator/activations", { clientId: "app_x", providerId: "se_bankid" }],
    ];
    for (const [method, url, body] of requests) {
      for (const headers of [bearer(key), {}]) {
        const res = await call(method, url, { headers, body });
        expect(res.status, `${method} ${url}`).toBe(401);
        expect(res.body.error.code).toBe("INVALID_OPERATOR_KEY");
      }
    }
    expect((await ticketRow(ticketId)).status).toBe("activation_requested");
  });
});

describe("POST /v1/operator/activations (record a contract activation)", () => {
  it("activates a contract provider for an app of the environment", async () => {
    const { key, app, operator, entry } = await setup("production");
    const res = await call("POST", "/api/production/v1/operator/activations", {
      headers: bearer(operator.operatorKey),
      body: { clientId: app.clientId, providerId: "se_bankid" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "activated",
      clientId: app.clientId,
      providerId: "se_bankid",
      activationKind: "contract",
      reviewerUserId: operator.userId,
    });
    expect(await entry("se_bankid")).toMatchObject({ status: "activated", isActive: true, enabled: true });
    const appJson = await call("GET", `/api/production/v1/apps/${app.clientId}`, { headers: bearer(key) });
    expect(appJson.body.providers.se_bankid).toEqual({ enabled: true });
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", res.body.id)
      .executeTakeFirst();
    expect(audit).toMatchObject({
      action: "activation.contract_recorded",
      actorType: "operator",
      actorId: operator.userId,
    });

    const again = await call("POST", "/api/production/v1/operator/activations", {
      headers: bearer(operator.operatorKey),
      body: { clientId: app.clientId, providerId: "se_bankid" },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain("activated");
  });

  it.each([
    [{ providerId: "se_bankid" }, "clientId", 400],
    [{ clientId: "APP", providerId: "nope" }, "providerId", 400],
    [{ clientId: "APP", providerId: "nl_digid" }, "providerId", 400],
    [{ clientId: "APP", providerId: "se_bankid", note: "x" }, "note", 400],
  ])("refuses %j naming the field", async (body, field, status) => {
    const { app, operator } = await setup("production");
    const res = await call("POST", "/api/production/v1/operator/activations", {
      headers: bearer(operator.operatorKey),
      body: JSON.parse(JSON.stringify(body).replace("APP", app.clientId)),
    });
    expect(res.status).toBe(status);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(await ticketCount(app.clientId)).toBe(0);
  });

  it("is 404 for an unknown app or one of the other environment", async () => {
    const { app, operator } = await setup("sandbox");
    for (const clientId of [app.clientId, "app_01HZZZZZZZZZZZZZZZZZZZZZZZ"]) {
      const res = await call("POST", "/api/production/v1/operator/activations", {
        headers: bearer(operator.operatorKey),
        body: { clientId, providerId: "se_bankid" },
      });
      expect(res.status).toBe(404);
    }
    expect(await ticketCount(app.clientId)).toBe(0);
  });
});
