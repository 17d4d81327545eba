import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { findProvider } from "@/lib/providers/catalog";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { expectWorkspaceKeyRequired } from "@/lib/testing/app-access";
import { bearer, call } from "@/lib/testing/router";
import { addAppProvider, createWorkflow, workflowBody } from "@/lib/testing/workflows";
import { providerSpecificClaims } from "@/lib/workflows/claims";

const passportSpecific = providerSpecificClaims(findProvider("passport")!.scopes);

async function setup() {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  return { ws, app, key: ws.keys.sandbox, url: `/api/sandbox/v1/apps/${app.clientId}/verification` };
}

describe("GET /v1/apps/{client_id}/verification", () => {
  it("derives the settings of a new app from its starter workflow", async () => {
    const { key, url } = await setup();
    const res = await call("GET", url, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      verification_type: "identity",
      request_attributes: ["given_name", "family_name", "birthdate", "nationality"],
      minimum_age: null,
      branding: { useAppBranding: true, name: null, logo: null },
      providers: [{ provider_id: "passport", enabled: true, provider_specific_attributes: passportSpecific }],
    });
    expect(passportSpecific).toContain("nationality");
  });

  it("follows the default workflow: age verification, claims, opt-outs and disabled providers", async () => {
    const { app, key, url } = await setup();
    await addAppProvider(app.clientId, "acme-id");
    await addAppProvider(app.clientId, "beta-id", { enabled: false });
    const body = workflowBody();
    body.nodes[1]!.config = {
      channel: "oidc",
      claims: ["birthdate", "document_number"],
      mode: "age_verification",
      minimumAge: 18,
      providers: { passport: { enabled: false }, "beta-id": { enabled: true } },
    };
    const wf = await createWorkflow(key, app.clientId, body);

    // a workflow that is not the default does not change the settings
    const before = await call("GET", url, { headers: bearer(key) });
    expect(before.body.verification_type).toBe("identity");
    expect(before.body.providers.map((p: { enabled: boolean }) => p.enabled)).toEqual([true, false, true]);

    const base = `/api/sandbox/v1/apps/${app.clientId}`;
    expect(
      (
        await call("PUT", `${base}/default-workflow`, {
          headers: bearer(key),
          body: { workflowId: wf.workflowId },
        })
      ).status,
    ).toBe(200);
    const res = await call("GET", url, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      verification_type: "age_verification",
      request_attributes: ["birthdate", "document_number"],
      minimum_age: 18,
      branding: { useAppBranding: true, name: null, logo: null },
      providers: [
        { provider_id: "acme-id", enabled: true, provider_specific_attributes: [] },
        // an override cannot enable a provider the app has disabled
        { provider_id: "beta-id", enabled: false, provider_specific_attributes: [] },
        { provider_id: "passport", enabled: false, provider_specific_attributes: passportSpecific },
      ],
    });

    // editing the default workflow and the app's providers shows at once
    const patched = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers: bearer(key),
      body: {
        nodes: [
          { id: "start", type: "request", next: "verify" },
          { id: "verify", type: "verification", next: "end", config: { channel: "api", claims: ["email"] } },
          { id: "end", type: "response" },
        ],
      },
    });
    expect(patched.status).toBe(200);
    await kysely()
      .updateTable("appProviders")
      .set({ enabled: false, updatedAt: new Date() })
      .where("appId", "=", app.clientId)
      .where("providerId", "=", "acme-id")
      .execute();
    const after = await call("GET", url, { headers: bearer(key) });
    expect(after.body.verification_type).toBe("identity");
    expect(after.body.request_attributes).toEqual(["email"]);
    expect(after.body.providers.map((p: { enabled: boolean }) => p.enabled)).toEqual([false, false, true]);
  });

  it("is 401 without a Bearer key, 403 for another workspace, 404 for unknown apps and across environments", async () => {
    const { ws, app, url } = await setup();
    const other = await makeWorkspace();
    await expectWorkspaceKeyRequired({ method: "GET", path: url, app, other });
    const unknown = await call("GET", "/api/sandbox/v1/apps/app_nope/verification", {
      headers: bearer(ws.keys.sandbox),
    });
    expect(unknown.status).toBe(404);
    const cross = await call("GET", `/api/production/v1/apps/${app.clientId}/verification`, {
      headers: bearer(ws.keys.production),
    });
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const deleted = await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(deleted.status).toBe(200);
    expect((await call("GET", url, { headers: bearer(ws.keys.sandbox) })).status).toBe(404);
  });
});

describe("PATCH /v1/apps/{client_id}/verification", () => {
  const PNG =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==";

  it("writes type, age, claims and branding into the default workflow's verification node, audited", async () => {
    const { app, key, url } = await setup();
    const res = await call("PATCH", url, {
      headers: bearer(key),
      body: {
        verification_type: "age_verification",
        minimum_age: 21,
        request_attributes: ["birthdate"],
        branding: { useAppBranding: false, name: "Checkout", logo: PNG },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verification_type: "age_verification",
      minimum_age: 21,
      request_attributes: ["birthdate"],
      branding: { useAppBranding: false, name: "Checkout", logo: PNG },
    });
    // the same answer on read, and the node itself changed
    expect((await call("GET", url, { headers: bearer(key) })).body).toEqual(res.body);
    const appRow = await kysely()
      .selectFrom("apps")
      .selectAll()
      .where("id", "=", app.clientId)
      .executeTakeFirstOrThrow();
    const wf = await kysely()
      .selectFrom("workflows")
      .selectAll()
      .where("id", "=", appRow.defaultWorkflowId!)
      .executeTakeFirstOrThrow();
    const node = (wf.nodes as { type: string; config?: Record<string, unknown> }[]).find(
      (n) => n.type === "verification",
    )!;
    expect(node.config).toMatchObject({ mode: "age_verification", minimumAge: 21, claims: ["birthdate"] });
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("action", "=", "verification_settings.updated")
      .where("targetId", "=", wf.id)
      .executeTakeFirst();
    expect(audit).toBeDefined();

    // back to identity: the age goes with the mode; null removes the branding name
    const back = await call("PATCH", url, {
      headers: bearer(key),
      body: { verification_type: "identity", branding: { useAppBranding: true, name: null } },
    });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      verification_type: "identity",
      minimum_age: null,
      request_attributes: ["birthdate"],
      branding: { useAppBranding: true, name: null, logo: PNG },
    });
  });

  it("refuses bad values naming the settings' fields, and writes nothing", async () => {
    const { key, url } = await setup();
    const before = (await call("GET", url, { headers: bearer(key) })).body;
    const cases: [unknown, string][] = [
      [{ verification_type: "age_verification" }, "minimum_age"],
      [{ request_attributes: ["not_a_claim"] }, "request_attributes[0]"],
      [{ request_attributes: [] }, "request_attributes"],
      [{ branding: { logo: "data:image/png;base64,AAAA" } }, "branding.logo"],
      [{ minimum_age: 300 }, "minimum_age"],
      [{ colour: "red" }, "colour"],
    ];
    for (const [body, path] of cases) {
      const res = await call("PATCH", url, { headers: bearer(key), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await call("GET", url, { headers: bearer(key) })).body).toEqual(before);
  });

  it("is refused to viewers' sessions and other workspaces' keys", async () => {
    const { url } = await setup();
    const other = await makeWorkspace();
    const res = await call("PATCH", url, {
      headers: bearer(other.keys.sandbox),
      body: { request_attributes: ["email"] },
    });
    expect(res.status).toBe(403);
    expect((await call("PATCH", url, { body: { request_attributes: ["email"] } })).status).toBe(401);
  });
});
