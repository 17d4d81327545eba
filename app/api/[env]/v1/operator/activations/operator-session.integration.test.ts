// The back-office's credential on the Operator API (an operator's session cookie) and the
// ticket-detail endpoint the back-office's ticket page reads.
import { describe, expect, it } from "vitest";
import { OPERATOR_EXPIRY_CLAIM } from "@/lib/auth/console/claims";
import { kysely } from "@/lib/db/client";
import { validValues } from "@/lib/testing/activation";
import {
  makeApp,
  makeOperator,
  makeWorkspace,
  operatorSessionHeaders,
  sessionHeaders,
} from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

async function setup() {
  const ws = await makeWorkspace("Queue workspace");
  const app = await makeApp(ws.keys.sandbox, "sandbox", "Queue app");
  const operator = await makeOperator();
  const submit = async (providerId = "nl_digid", values = validValues(providerId)) => {
    const res = await call("POST", `/api/sandbox/v1/apps/${app.clientId}/activation`, {
      headers: bearer(ws.keys.sandbox),
      body: { providers: { [providerId]: values } },
    });
    expect(res.status).toBe(200);
    return res.body[0].activation.id as string;
  };
  return { ws, app, operator, submit };
}

const status = async (ticketId: string) =>
  (
    await kysely()
      .selectFrom("activationTickets")
      .select("status")
      .where("id", "=", ticketId)
      .executeTakeFirstOrThrow()
  ).status;

function updateUser(id: string, values: { isOperator?: boolean; sessionsValidFrom?: Date }) {
  return kysely()
    .updateTable("users")
    .set({ ...values, updatedAt: new Date() })
    .where("id", "=", id)
    .execute();
}

describe("an operator's session on the Operator API", () => {
  it("lists, reviews and rejects with the session; audit entries name the operator", async () => {
    const { ws, operator, submit } = await setup();
    const ticketId = await submit();
    const headers = await operatorSessionHeaders(operator.userId);

    const list = await call("GET", "/api/sandbox/v1/operator/activations?providerId=nl_digid&limit=100", {
      headers,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.find((t: { id: string }) => t.id === ticketId)).toMatchObject({
      workspaceId: ws.workspaceId,
      workspaceName: "Queue workspace",
      appName: "Queue app",
      providerId: "nl_digid",
    });
    expect(list.body.data.every((t: { providerId: string }) => t.providerId === "nl_digid")).toBe(true);

    const review = await call("POST", `/api/sandbox/v1/operator/activations/${ticketId}/review`, { headers });
    expect(review.status).toBe(200);
    expect(review.body.reviewerUserId).toBe(operator.userId);
    const reject = await call("POST", `/api/sandbox/v1/operator/activations/${ticketId}/reject`, {
      headers,
      body: { reason: "The privacy policy URL does not load" },
    });
    expect(reject.status).toBe(200);
    expect(reject.body).toMatchObject({
      status: "rejected",
      rejectionReason: "The privacy policy URL does not load",
    });

    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", ticketId)
      .where("actorType", "=", "operator")
      .orderBy("createdAt", "asc")
      .execute();
    expect(audit.map((a) => [a.action, a.actorType, a.actorId])).toEqual([
      ["activation.review_started", "operator", operator.userId],
      ["activation.rejected", "operator", operator.userId],
    ]);
  });

  it("still accepts the operator key, which wins over a cookie", async () => {
    const { operator, submit } = await setup();
    const ticketId = await submit();
    const other = await makeWorkspace();
    const res = await call("POST", `/api/sandbox/v1/operator/activations/${ticketId}/review`, {
      // a workspace member's cookie beside the key: the key decides
      headers: { ...(await sessionHeaders(other.userId)), ...bearer(operator.operatorKey) },
    });
    expect(res.status).toBe(200);
    expect(res.body.reviewerUserId).toBe(operator.userId);
  });

  it("records a contract with the session, audited with the operator's user id", async () => {
    const { app, operator } = await setup();
    const res = await call("POST", "/api/sandbox/v1/operator/activations", {
      headers: await operatorSessionHeaders(operator.userId),
      body: { clientId: app.clientId, providerId: "se_bankid" },
    });
    expect(res.status).toBe(201);
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
  });

  it("refuses workspace sessions (403), workspace keys and no credential (401)", async () => {
    const { ws, submit } = await setup();
    const ticketId = await submit();
    const member = await sessionHeaders(ws.userId);
    for (const [method, path] of [
      ["GET", "/api/sandbox/v1/operator/activations"],
      ["GET", `/api/sandbox/v1/operator/activations/${ticketId}`],
      ["POST", `/api/sandbox/v1/operator/activations/${ticketId}/review`],
    ] as const) {
      const bySession = await call(method, path, { headers: member });
      expect(bySession.status, `${method} ${path}`).toBe(403);
      expect(bySession.body.error.code).toBe("RESOURCE_FORBIDDEN");
      const byKey = await call(method, path, { headers: bearer(ws.keys.sandbox) });
      expect(byKey.status).toBe(401);
      expect(byKey.body.error.code).toBe("INVALID_OPERATOR_KEY");
      const none = await call(method, path);
      expect(none.status).toBe(401);
    }
    expect(await status(ticketId)).toBe("activation_requested");
  });

  it("refuses cookie writes without a same-origin Origin (CSRF); reads need none", async () => {
    const { operator, submit } = await setup();
    const ticketId = await submit();
    for (const origin of [null, "https://evil.example"]) {
      const res = await call("POST", `/api/sandbox/v1/operator/activations/${ticketId}/review`, {
        headers: await operatorSessionHeaders(operator.userId, { origin }),
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    }
    expect(await status(ticketId)).toBe("activation_requested");
    const read = await call("GET", `/api/sandbox/v1/operator/activations/${ticketId}`, {
      headers: await operatorSessionHeaders(operator.userId, { origin: null }),
    });
    expect(read.status).toBe(200);
  });

  it("refuses an ended operator session, a session from before the operator flag, and a former operator", async () => {
    const { operator } = await setup();
    const ended = await call("GET", "/api/sandbox/v1/operator/activations", {
      headers: await operatorSessionHeaders(operator.userId, { expiresInSeconds: -1 }),
    });
    expect(ended.status).toBe(401);
    expect(ended.body.error.code).toBe("INVALID_SESSION");

    // a session without the operator claim: signed in before becoming an operator
    const plain = await call("GET", "/api/sandbox/v1/operator/activations", {
      headers: await sessionHeaders(operator.userId),
    });
    expect(plain.status).toBe(403);
    expect(plain.body.error.message).toMatch(/sign in again/);

    const headers = await operatorSessionHeaders(operator.userId);
    await updateUser(operator.userId, { isOperator: false });
    const former = await call("GET", "/api/sandbox/v1/operator/activations", { headers });
    expect(former.status).toBe(403);

    await updateUser(operator.userId, { isOperator: true, sessionsValidFrom: new Date(Date.now() + 5000) });
    const signedOut = await call("GET", "/api/sandbox/v1/operator/activations", { headers });
    expect(signedOut.status).toBe(401);
  });

  it("ends an operator's session everywhere after its 2 hours, the console included", async () => {
    const ws = await makeWorkspace();
    await updateUser(ws.userId, { isOperator: true });
    const live = await sessionHeaders(ws.userId, {
      claims: { [OPERATOR_EXPIRY_CLAIM]: Math.floor(Date.now() / 1000) + 60 },
    });
    expect((await call("GET", "/api/sandbox/v1/workspace", { headers: live })).status).toBe(200);
    expect((await call("GET", "/api/sandbox/v1/operator/activations", { headers: live })).status).toBe(200);
    const ended = await sessionHeaders(ws.userId, {
      claims: { [OPERATOR_EXPIRY_CLAIM]: Math.floor(Date.now() / 1000) - 1 },
    });
    const consoleRead = await call("GET", "/api/sandbox/v1/workspace", { headers: ended });
    expect(consoleRead.status).toBe(401);
    expect(consoleRead.body.error.code).toBe("INVALID_SESSION");
  });
});

describe("GET /v1/operator/activations/{ticket_id}", () => {
  it("shows the submitted values beside the requirements, the company information and the history", async () => {
    const { app, operator, submit } = await setup();
    const first = await submit("nl_digid", validValues("nl_digid", { displayName: "Acme first" }));
    const headers = bearer(operator.operatorKey);
    const act = (id: string, step: string, body?: unknown) =>
      call("POST", `/api/sandbox/v1/operator/activations/${id}/${step}`, { headers, body });
    expect((await act(first, "review")).status).toBe(200);
    expect((await act(first, "reject", { reason: "Display name is not the brand" })).status).toBe(200);
    const values = validValues("nl_digid", { displayName: "Acme" });
    const second = await submit("nl_digid", values);

    const res = await call("GET", `/api/sandbox/v1/operator/activations/${second}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({
      id: second,
      status: "activation_requested",
      workspaceName: "Queue workspace",
      appName: "Queue app",
    });
    expect(res.body.app.clientId).toBe(app.clientId);
    expect(res.body.app.name).toBe("Queue app");
    const byId = Object.fromEntries(
      res.body.requirements.map((r: { id: string; submittedValue: unknown }) => [r.id, r.submittedValue]),
    );
    expect(byId).toEqual(values);
    // company-information inputs were remembered on the app
    const companyIds = res.body.requirements
      .filter((r: { currentValue: unknown }) => r.currentValue !== null)
      .map((r: { id: string }) => r.id);
    expect(companyIds.length).toBeGreaterThan(0);
    for (const id of companyIds) expect(res.body.app.companyInfo[id]).toBe(values[id]);
    expect(res.body.history).toEqual([
      expect.objectContaining({
        id: first,
        status: "rejected",
        rejectionReason: "Display name is not the brand",
      }),
    ]);
  });

  it("is 404 for an unknown ticket and for another environment's", async () => {
    const { operator, submit } = await setup();
    const ticketId = await submit();
    const headers = bearer(operator.operatorKey);
    const unknown = await call("GET", "/api/sandbox/v1/operator/activations/act_unknown", { headers });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const elsewhere = await call("GET", `/api/production/v1/operator/activations/${ticketId}`, { headers });
    expect(elsewhere.status).toBe(404);
  });

  it("refuses a provider id outside the catalog as a list filter", async () => {
    const { operator } = await setup();
    const res = await call("GET", "/api/sandbox/v1/operator/activations?providerId=nope", {
      headers: bearer(operator.operatorKey),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("providerId");
  });
});
