/** GET /v1/apps/{client_id}/workflows/templates, and creating workflows from the templates. */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";
import { activateProviders } from "@/lib/testing/verifications";

async function setup() {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  const base = `/api/sandbox/v1/apps/${app.clientId}`;
  return { ws, app, base, headers: bearer(ws.keys.sandbox) };
}

interface TTemplate {
  id: string;
  requiredProviders: string[];
  missingProviders: string[];
  workflow: {
    name: string;
    entryNodeId: string;
    nodes: object[];
    positions: Record<string, { x: number; y: number }>;
  };
}

describe("GET /v1/apps/{client_id}/workflows/templates", () => {
  it("lists the four templates; a new app misses the providers beyond passport", async () => {
    const { base, headers } = await setup();
    const res = await call("GET", `${base}/workflows/templates`, { headers });
    expect(res.status).toBe(200);
    const templates = res.body as TTemplate[];
    expect(templates.map((t) => t.id)).toEqual([
      "full_identity",
      "age_over_18",
      "high_assurance",
      "match_known_customer",
    ]);
    expect(Object.fromEntries(templates.map((t) => [t.id, t.missingProviders]))).toEqual({
      full_identity: [],
      age_over_18: [],
      high_assurance: ["de_eid"],
      match_known_customer: ["bank_data_match"],
    });
    for (const t of templates) {
      expect(Object.keys(t.workflow.positions).sort()).toEqual(
        (t.workflow.nodes as { id: string }[]).map((n) => n.id).sort(),
      );
    }
  });

  it("each template validates and creates as is once its providers are there; missing ones are named", async () => {
    const { app, base, headers } = await setup();
    const before = (await call("GET", `${base}/workflows/templates`, { headers })).body as TTemplate[];
    for (const t of before.filter((x) => x.missingProviders.length > 0)) {
      const check = await call("POST", `${base}/workflows/validate`, { headers, body: t.workflow });
      expect(check.body.valid, t.id).toBe(false);
      for (const id of t.missingProviders)
        expect(check.body.details.map((d: { path: string }) => d.path)).toContainEqual(
          expect.stringMatching(new RegExp(`providers\\.${id}$`)),
        );
    }

    await activateProviders(app.clientId, ["de_eid", "bank_data_match"]);
    const templates = (await call("GET", `${base}/workflows/templates`, { headers })).body as TTemplate[];
    for (const t of templates) {
      expect(t.missingProviders, t.id).toEqual([]);
      const check = await call("POST", `${base}/workflows/validate`, { headers, body: t.workflow });
      expect(check.body, t.id).toEqual({ valid: true, details: [] });
      const created = await call("POST", `${base}/workflows`, { headers, body: t.workflow });
      expect(created.status, t.id).toBe(201);
      expect(created.body).toMatchObject({ ...t.workflow, version: 1 });
    }
    expect(await countRows(kysely().selectFrom("workflows").where("appId", "=", app.clientId))).toBe(5);
  });

  it("the match and age templates run as described on the engine", async () => {
    const { app, base, headers } = await setup();
    await activateProviders(app.clientId, ["bank_data_match"]);
    const templates = (await call("GET", `${base}/workflows/templates`, { headers })).body as TTemplate[];
    const create = async (id: string) =>
      (
        await call("POST", `${base}/workflows`, {
          headers,
          body: templates.find((t) => t.id === id)!.workflow,
        })
      ).body.workflowId as string;
    const matchId = await create("match_known_customer");
    const ageId = await create("age_over_18");
    const creds = basic(app.clientId, app.clientSecret);
    const start = (body: object) => call("POST", "/api/sandbox/v1/verifications", { headers: creds, body });
    const simulate = (id: string, identity: string) =>
      call("POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
        headers: creds,
        body: { outcome: "success", identity },
      });
    const identities = async (providerId: string) =>
      (await call("GET", `/api/sandbox/v1/sandbox/identities?providerId=${providerId}`, { headers: creds }))
        .body as { id: string; scenario: string; claims: Record<string, string> }[];

    // only the match provider is accepted
    const passport = await start({ providerId: "passport", workflowId: matchId });
    expect(passport.status).toBe(400);
    expect(passport.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");

    const person = (await identities("bank_data_match")).find((i) => i.scenario === "success")!;
    const matchData = {
      given_name: person.claims.given_name,
      family_name: person.claims.family_name,
      birthdate: person.claims.birthdate,
    };
    const good = await start({ providerId: "bank_data_match", workflowId: matchId, matchData });
    expect(good.status).toBe(201);
    expect((await simulate(good.body.verificationId, person.id)).body.status).toBe("completed");
    const bad = await start({
      providerId: "bank_data_match",
      workflowId: matchId,
      matchData: { ...matchData, family_name: "Wrongname" },
    });
    const failed = await simulate(bad.body.verificationId, person.id);
    expect(failed.body).toMatchObject({ status: "failed", reason: "missing_claim" });

    const adult = (await identities("passport")).find((i) => i.scenario === "success")!;
    const age = await start({ providerId: "passport", workflowId: ageId });
    expect(age.status).toBe(201);
    expect((await simulate(age.body.verificationId, adult.id)).body.status).toBe("completed");
    const info = await call("GET", `/api/sandbox/v1/verifications/${age.body.verificationId}/userinfo`, {
      headers: creds,
    });
    expect(Object.keys(info.body.user)).toEqual(["age_over_18"]);
  });

  it("counts a provider that is added but disabled or not activated as missing", async () => {
    const { app, base, headers } = await setup();
    const updatedAt = new Date();
    await kysely()
      .insertInto("appProviders")
      .values([
        { appId: app.clientId, providerId: "de_eid", status: "activated", enabled: false, updatedAt },
        { appId: app.clientId, providerId: "bank_data_match", status: "pending", enabled: true, updatedAt },
      ])
      .execute();
    const res = await call("GET", `${base}/workflows/templates`, { headers });
    const missing = Object.fromEntries((res.body as TTemplate[]).map((t) => [t.id, t.missingProviders]));
    expect(missing).toMatchObject({ high_assurance: ["de_eid"], match_known_customer: ["bank_data_match"] });
  });

  it("is readable by a viewer; 401 without credentials, 403 for another workspace, 404 across environments", async () => {
    const { ws, app, base } = await setup();
    const viewer = await addMember(ws.workspaceId, "viewer");
    const session = await sessionHeaders(viewer.userId, { workspaceId: ws.workspaceId });
    expect((await call("GET", `${base}/workflows/templates`, { headers: session })).status).toBe(200);
    expect((await call("GET", `${base}/workflows/templates`)).status).toBe(401);
    const other = await makeWorkspace();
    expect(
      (await call("GET", `${base}/workflows/templates`, { headers: bearer(other.keys.sandbox) })).status,
    ).toBe(403);
    const cross = await call("GET", `/api/production/v1/apps/${app.clientId}/workflows/templates`, {
      headers: bearer(ws.keys.production),
    });
    expect(cross.status).toBe(404);
  });
});
