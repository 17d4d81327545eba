import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { randomToken } from "@/lib/ids";
import { addMember, makeApp, makeOperator, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";
import { makeVerificationRow } from "@/lib/testing/webhooks";

const base = (env = "sandbox") => `/api/${env}/v1/operator/workspaces`;
const DAY = 24 * 3600 * 1000;

/** Sessions and webhook deliveries written directly: only the figures are under test here. */
async function addActivity(
  clientId: string,
  { sessions = 0, oldSessions = 0, delivered = 0, dead = 0, testDeliveries = 0 } = {},
) {
  const rows = [];
  for (let i = 0; i < sessions + oldSessions; i++) rows.push(await makeVerificationRow(clientId));
  for (const row of rows.slice(sessions)) {
    await kysely()
      .updateTable("verifications")
      .set({ createdAt: new Date(Date.now() - 31 * DAY), updatedAt: new Date() })
      .where("id", "=", row.id)
      .execute();
  }
  const verification = rows[0] ?? (await makeVerificationRow(clientId));
  const event = await kysely()
    .insertInto("verificationEvents")
    .values({
      id: `evt_${randomToken(26)}`,
      verificationId: verification.id,
      appId: clientId,
      type: "verification.created",
      payload: JSON.stringify({}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const statuses = [
    ...Array<string>(delivered).fill("succeeded"),
    ...Array<string>(dead).fill("dead"),
    ...Array<string>(testDeliveries).fill("test"),
  ];
  for (const status of statuses) {
    await kysely()
      .insertInto("webhookDeliveries")
      .values({
        id: `dlv_${randomToken(26)}`,
        appId: clientId,
        eventId: status === "test" ? null : event.id,
        eventType: "verification.created",
        url: "https://hooks.example.test/",
        body: "{}",
        status: status === "test" ? "dead" : status,
        updatedAt: new Date(),
      })
      .execute();
  }
}

async function setup() {
  const tag = `ovw-${randomToken(10).toLowerCase()}`;
  const operator = await makeOperator();
  const a = await makeWorkspace(`${tag} Alpha`);
  const b = await makeWorkspace(`${tag} Beta`);
  const other = await makeWorkspace(`unrelated ${randomToken(6)}`);
  return { tag, operator, a, b, other, headers: bearer(operator.operatorKey) };
}

describe("GET /v1/operator/workspaces", () => {
  it("lists workspaces of every owner with members, apps per environment, sessions and webhook failure rate", async () => {
    const { tag, a, b, headers } = await setup();
    await addMember(a.workspaceId, "developer");
    const aSandbox = await makeApp(a.keys.sandbox, "sandbox");
    await makeApp(a.keys.sandbox, "sandbox");
    const aProd = await makeApp(a.keys.production, "production");
    const deleted = await makeApp(a.keys.sandbox, "sandbox");
    await call("DELETE", `/api/sandbox/v1/apps/${deleted.clientId}`, { headers: bearer(a.keys.sandbox) });
    await addActivity(aSandbox.clientId, {
      sessions: 3,
      oldSessions: 2,
      delivered: 3,
      dead: 1,
      testDeliveries: 4,
    });
    await addActivity(aProd.clientId, { sessions: 1, delivered: 1 });

    const res = await call("GET", `${base()}?search=${tag}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, limit: 20, offset: 0, hasMore: false });
    // newest first
    expect(res.body.data.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([
      b.workspaceId,
      a.workspaceId,
    ]);
    expect(res.body.data[1]).toEqual({
      workspaceId: a.workspaceId,
      name: `${tag} Alpha`,
      createdAt: expect.any(String),
      memberCount: 2,
      apps: { sandbox: 2, production: 1 },
      sessionsLast30Days: 3,
      webhooks: { deliveries: 4, dead: 1, failureRate: 0.25 },
    });
    expect(res.body.data[0]).toMatchObject({
      memberCount: 1,
      apps: { sandbox: 0, production: 0 },
      sessionsLast30Days: 0,
      webhooks: { deliveries: 0, dead: 0, failureRate: null },
    });

    // the production figures are production's own
    const prod = await call("GET", `${base("production")}?search=${a.workspaceId}`, { headers });
    expect(prod.body.data).toHaveLength(1);
    expect(prod.body.data[0]).toMatchObject({
      apps: { sandbox: 2, production: 1 },
      sessionsLast30Days: 1,
      webhooks: { deliveries: 1, dead: 0, failureRate: 0 },
    });
  });

  it("searches by name (any case), exact id and a member's email, and paginates", async () => {
    const { tag, a, b, other, headers } = await setup();
    const member = await addMember(b.workspaceId, "viewer");

    const byName = await call("GET", `${base()}?search=${encodeURIComponent(`${tag} ALPHA`)}`, { headers });
    expect(byName.body.data.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([a.workspaceId]);
    const byId = await call("GET", `${base()}?search=${other.workspaceId}`, { headers });
    expect(byId.body.data.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([other.workspaceId]);
    const byEmail = await call("GET", `${base()}?search=${encodeURIComponent(member.email.toUpperCase())}`, {
      headers,
    });
    expect(byEmail.body.data.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([b.workspaceId]);
    const byOwnerEmail = await call("GET", `${base()}?search=${encodeURIComponent(a.email)}`, { headers });
    expect(byOwnerEmail.body.data.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([
      a.workspaceId,
    ]);
    // LIKE wildcards are literal
    const wildcard = await call("GET", `${base()}?search=${encodeURIComponent(`${tag}%`)}`, { headers });
    expect(wildcard.body.total).toBe(0);

    const first = await call("GET", `${base()}?search=${tag}&limit=1`, { headers });
    expect(first.body).toMatchObject({ total: 2, limit: 1, offset: 0, hasMore: true });
    expect(first.body.data[0].workspaceId).toBe(b.workspaceId);
    const second = await call("GET", `${base()}?search=${tag}&limit=1&offset=1`, { headers });
    expect(second.body).toMatchObject({ total: 2, hasMore: false });
    expect(second.body.data[0].workspaceId).toBe(a.workspaceId);
    const past = await call("GET", `${base()}?search=${tag}&offset=5`, { headers });
    expect(past.body).toMatchObject({ data: [], total: 2, hasMore: false });

    // without a search every workspace is listed
    const all = await call("GET", `${base()}?limit=100`, { headers });
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    const blank = await call("GET", `${base()}?search=`, { headers });
    expect(blank.status).toBe(200);
    expect(blank.body.total).toBe(all.body.total);
  });

  it("refuses bad filters naming the field", async () => {
    const { headers } = await setup();
    for (const [qs, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["offset=-1", "offset"],
      ["limit=abc", "limit"],
      [`search=${"x".repeat(201)}`, "search"],
    ] as const) {
      const res = await call("GET", `${base()}?${qs}`, { headers });
      expect(res.status, qs).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0].path, qs).toBe(field);
    }
  });
});

describe("GET /v1/operator/workspaces/{workspace_id}", () => {
  it("shows members, the apps of the URL's environment with their activation statuses", async () => {
    const { a, headers } = await setup();
    const dev = await addMember(a.workspaceId, "developer");
    const app = await makeApp(a.keys.sandbox, "sandbox", "Shop");
    const prodApp = await makeApp(a.keys.production, "production", "Shop live");

    const res = await call("GET", `${base()}/${a.workspaceId}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      workspaceId: a.workspaceId,
      memberCount: 2,
      apps: { sandbox: 1, production: 1 },
    });
    expect(res.body.members).toEqual([
      { userId: a.userId, email: a.email, name: null, role: "owner", joinedAt: expect.any(String) },
      { userId: dev.userId, email: dev.email, name: null, role: "developer", joinedAt: expect.any(String) },
    ]);
    expect(res.body.appsInEnvironment).toHaveLength(1);
    expect(res.body.appsInEnvironment[0]).toMatchObject({
      clientId: app.clientId,
      name: "Shop",
      customDomainStatus: "unconfigured",
    });
    // the starter workflow's passport provider is activated and enabled
    expect(res.body.appsInEnvironment[0].providers).toContainEqual(
      expect.objectContaining({ providerId: "passport", status: "activated", enabled: true }),
    );

    const prod = await call("GET", `${base("production")}/${a.workspaceId}`, { headers });
    expect(prod.body.appsInEnvironment.map((x: { clientId: string }) => x.clientId)).toEqual([
      prodApp.clientId,
    ]);
  });

  it("is 404 for an unknown workspace", async () => {
    const { headers } = await setup();
    const res = await call("GET", `${base()}/ws_unknown`, { headers });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
  });
});

describe("operator workspace endpoints refuse everyone else", () => {
  it("401 without credentials, with a workspace key or a workspace member's session", async () => {
    const { a } = await setup();
    for (const url of [base(), `${base()}/${a.workspaceId}`]) {
      const none = await call("GET", url);
      expect(none.status, url).toBe(401);
      for (const key of [a.keys.sandbox, a.keys.production]) {
        const res = await call("GET", url, { headers: bearer(key) });
        expect(res.status, url).toBe(401);
        expect(res.body.error.code).toBe("INVALID_OPERATOR_KEY");
      }
      const session = await call("GET", url, { headers: await sessionHeaders(a.userId) });
      expect([401, 403], url).toContain(session.status);
    }
  });
});
