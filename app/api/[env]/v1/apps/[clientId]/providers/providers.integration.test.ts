import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { PROVIDERS } from "@/lib/providers/catalog";
import { validValues } from "@/lib/testing/activation";
import { makeApp, makeOperator, makeWorkspace } from "@/lib/testing/factories";
import { expectWorkspaceKeyRequired } from "@/lib/testing/app-access";
import { basic, bearer, call } from "@/lib/testing/router";

const appProviderRow = (appId: string, providerId: string) =>
  kysely()
    .selectFrom("appProviders")
    .selectAll()
    .where("appId", "=", appId)
    .where("providerId", "=", providerId)
    .executeTakeFirstOrThrow();

type Entry = Record<string, unknown> & {
  id: string;
  status?: string;
  activation?: {
    status: string;
    id?: string;
    requirements: Array<Record<string, unknown> & { id: string }>;
    [k: string]: unknown;
  };
};

async function setup(env: "sandbox" | "production" = "sandbox") {
  const ws = await makeWorkspace();
  const key = env === "sandbox" ? ws.keys.sandbox : ws.keys.production;
  const app = await makeApp(key, env);
  const list = async (qs = "") =>
    call<Entry[]>("GET", `/api/${env}/v1/apps/${app.clientId}/providers${qs}`, { headers: bearer(key) });
  const submit = (providers: Record<string, unknown>) =>
    call("POST", `/api/${env}/v1/apps/${app.clientId}/activation`, {
      headers: bearer(key),
      body: { providers },
    });
  const patch = (providerId: string, body: unknown) =>
    call("PATCH", `/api/${env}/v1/apps/${app.clientId}/providers/${providerId}`, {
      headers: bearer(key),
      body,
    });
  return { ws, key, app, list, submit, patch };
}

/** Takes a registration provider through operator review to activated. */
async function approveByOperator(env: "sandbox" | "production", ticketId: string) {
  const operator = await makeOperator();
  for (const step of ["review", "approve"]) {
    const res = await call("POST", `/api/${env}/v1/operator/activations/${ticketId}/${step}`, {
      headers: bearer(operator.operatorKey),
    });
    expect(res.status).toBe(200);
  }
}

describe("GET /v1/apps/{client_id}/providers", () => {
  it("lists only providers added to a sandbox app, with catalog fields, isActive and needAction", async () => {
    const { list } = await setup();
    const res = await list();
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((p) => p.id)).toEqual(["passport"]);
    const [passport] = res.body;
    expect(passport).toMatchObject({
      id: "passport",
      name: "Passport (NFC)",
      logoUrl: "/providers/passport.svg",
      flowTypes: ["qr"],
      loa: [2, 3],
      defaultLoa: 2,
      type: 2,
      verificationModel: "disclosure",
      activationKind: "direct",
      isActive: true,
      needAction: false,
      enabled: true,
    });
    expect(passport!.countries).toContain("DE");
    expect(passport!.scopes).toContain("openid");
    expect(passport).not.toHaveProperty("matchGranularity");
    expect(passport).not.toHaveProperty("status");
    expect(passport).not.toHaveProperty("activation");
  });

  it("lists the whole catalog in production, not-added providers inactive", async () => {
    const { list } = await setup("production");
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.map((p) => p.id)).toEqual(PROVIDERS.map((p) => p.id));
    const match = res.body.find((p) => p.id === "bank_data_match")!;
    expect(match).toMatchObject({
      verificationModel: "match",
      matchGranularity: "per_field",
      isActive: false,
    });
    expect(res.body.find((p) => p.id === "in_aadhaar_match")!.matchGranularity).toBe("aggregate");
    expect(res.body.find((p) => p.id === "nl_digid")).toMatchObject({ isActive: false, enabled: false });
  });

  it("adds status and activation with include=activation", async () => {
    const { list } = await setup("production");
    const res = await list("?include=activation");
    expect(res.status).toBe(200);
    const byId = new Map(res.body.map((p) => [p.id, p]));

    // the starter passport: activated at app creation, without a ticket
    const passport = byId.get("passport")!;
    expect(passport.status).toBe("activated");
    expect(passport.activation).toMatchObject({ status: "activated", requirements: [] });
    expect(passport.activation!.activatedAt).toEqual(expect.any(String));
    expect(passport.activation).not.toHaveProperty("id");
    expect(passport.activation).not.toHaveProperty("requestedAt");
    expect(passport.activation).not.toHaveProperty("rejectedAt");

    const digid = byId.get("nl_digid")!;
    expect(digid.status).toBe("not_activated");
    expect(Object.keys(digid.activation!).sort()).toEqual(["requirements", "status"]);
    expect(digid.activation!.status).toBe("not_activated");
    const ids = digid.activation!.requirements.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(["legalCompanyName", "registrationNumber", "contactEmail"]));
    const email = digid.activation!.requirements.find((r) => r.id === "contactEmail")!;
    expect(email).toMatchObject({
      type: "email",
      required: true,
      example: expect.any(String),
      maxLength: 254,
      currentValue: null,
      submittedValue: null,
    });
    const level = digid.activation!.requirements.find((r) => r.id === "userDataLevel")!;
    expect(level).toMatchObject({ type: "select", required: true });
    expect(level).not.toHaveProperty("example");
    expect((level.options as unknown[]).length).toBeGreaterThan(1);

    const bankid = byId.get("se_bankid")!;
    expect(bankid.activationKind).toBe("contract");
    expect(bankid.activation!.requirements).toEqual([
      expect.objectContaining({ id: "supportContact", type: "info", value: expect.stringContaining("@") }),
    ]);
    expect(bankid.activation!.requirements[0]).not.toHaveProperty("required");
    expect(byId.get("de_eid")!.activation!.requirements).toEqual([]);
  });

  it.each([
    ["?include=activation&include=foo", true],
    ["?include=foo&include=activation", true],
    ["?include=activation,foo", true],
    ["?include=foo", false],
    ["?include=", false],
    ["?other=1", false],
  ])("reads every include value: %s", async (qs, expected) => {
    const { list } = await setup();
    const res = await list(qs);
    expect(res.status).toBe(200);
    expect("activation" in res.body[0]!).toBe(expected);
    expect("status" in res.body[0]!).toBe(expected);
  });

  it("lists the whole catalog with the app's status in the sandbox with scope=catalog", async () => {
    const { list, submit } = await setup();
    expect((await submit({ se_bankid: {} })).status).toBe(200);
    const res = await list("?scope=catalog&include=activation");
    expect(res.status).toBe(200);
    expect(res.body.map((p) => p.id)).toEqual(PROVIDERS.map((p) => p.id));
    const byId = new Map(res.body.map((p) => [p.id, p]));
    expect(byId.get("passport")!.status).toBe("activated");
    expect(byId.get("se_bankid")!.status).toBe("not_activated");
    expect(byId.get("nl_digid")).toMatchObject({ status: "not_activated", isActive: false });
    expect(byId.get("nl_digid")!.activation!.requirements.length).toBeGreaterThan(0);
    // the default stays the spec's sandbox listing
    expect((await list()).body.map((p) => p.id)).toEqual(["passport", "se_bankid"]);
    // scope=app is the default spelled out; anything else is refused, naming the parameter
    expect((await list("?scope=app")).body.map((p) => p.id)).toEqual(["passport", "se_bankid"]);
    const bad = await list("?scope=everything");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('"path":"scope"');
  });

  it("shows providers once submitted in the sandbox, with the latest ticket and submitted values", async () => {
    const { list, submit } = await setup();
    const values = validValues("nl_digid", { displayName: "Acme Shop" });
    expect((await submit({ nl_digid: values, se_bankid: {} })).status).toBe(200);
    const res = await list("?include=activation");
    expect(res.body.map((p) => p.id)).toEqual(["passport", "nl_digid", "se_bankid"]);
    const digid = res.body.find((p) => p.id === "nl_digid")!;
    expect(digid.status).toBe("activation_requested");
    expect(digid.activation!.id).toMatch(/^act_[0-9A-Z]{26}$/);
    expect(digid.activation!.requestedAt).toEqual(expect.any(String));
    expect(digid.activation).not.toHaveProperty("activatedAt");
    const display = digid.activation!.requirements.find((r) => r.id === "displayName")!;
    expect(display.submittedValue).toBe("Acme Shop");
    expect(display.currentValue).toBe("Acme Shop");
    // a contract provider without demo is added but stays not_activated, without a ticket
    const bankid = res.body.find((p) => p.id === "se_bankid")!;
    expect(bankid.status).toBe("not_activated");
    expect(bankid.activation).not.toHaveProperty("id");
    expect(bankid.enabled).toBe(false);
  });

  it("prefills currentValue from company information submitted earlier for another provider", async () => {
    const { list, submit } = await setup("production");
    const values = validValues("nl_digid", {
      legalCompanyName: "Acme Holding B.V.",
      registrationNumber: "KVK 12345678",
      contactEmail: "legal@acme.example",
      userDataLevel: "extended",
    });
    expect((await submit({ nl_digid: values })).status).toBe(200);
    const res = await list("?include=activation");
    const mitid = res.body.find((p) => p.id === "dk_mitid")!;
    const reqs = new Map(mitid.activation!.requirements.map((r) => [r.id, r]));
    expect(reqs.get("legalCompanyName")).toMatchObject({
      currentValue: "Acme Holding B.V.",
      submittedValue: null,
    });
    expect(reqs.get("registrationNumber")!.currentValue).toBe("KVK 12345678");
    expect(reqs.get("contactEmail")!.currentValue).toBe("legal@acme.example");
    // provider-specific choices are not company information
    expect(reqs.get("userDataLevel")!.currentValue).toBeNull();
    expect(reqs.get("termsAccepted")!.currentValue).toBeNull();
  });

  it("reports needAction when the stored configuration of an activated provider is made invalid", async () => {
    const { app, list, submit } = await setup("production");
    const submitted = await submit({ nl_digid: validValues("nl_digid") });
    await approveByOperator("production", submitted.body[0]!.activation!.id!);

    const before = (await list()).body.find((p) => p.id === "nl_digid")!;
    expect(before).toMatchObject({ isActive: true, needAction: false, enabled: true });

    await kysely()
      .updateTable("appProviders")
      .set({
        config: JSON.stringify({
          ...validValues("nl_digid"),
          contactEmail: "not-an-email",
          legalCompanyName: undefined,
        }),
        updatedAt: new Date(),
      })
      .where("appId", "=", app.clientId)
      .where("providerId", "=", "nl_digid")
      .execute();
    const after = (await list("?include=activation")).body.find((p) => p.id === "nl_digid")!;
    expect(after).toMatchObject({ isActive: true, needAction: true, status: "activated" });

    const creds = basic(app.clientId, app.clientSecret);
    const appApi = await call("GET", "/api/production/v1/providers", { headers: creds });
    expect(appApi.body.find((p: Entry) => p.id === "nl_digid").status).toBe("action_required");
    const filtered = await call("GET", "/api/production/v1/providers?status=action_required", {
      headers: creds,
    });
    expect(filtered.body.map((p: Entry) => p.id)).toEqual(["nl_digid"]);
  });

  it("refuses missing and wrong credentials, other workspaces and other environments", async () => {
    const { app } = await setup();
    const other = await makeWorkspace();
    const url = `/api/sandbox/v1/apps/${app.clientId}/providers`;
    await expectWorkspaceKeyRequired({ method: "GET", path: url, app, other });
    const crossEnv = await call("GET", `/api/production/v1/apps/${app.clientId}/providers`, {
      headers: bearer(other.keys.production),
    });
    expect(crossEnv.status).toBe(404);
    expect(crossEnv.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const unknown = await call("GET", "/api/sandbox/v1/apps/app_01HZZZZZZZZZZZZZZZZZZZZZZZ/providers", {
      headers: bearer(other.keys.sandbox),
    });
    expect(unknown.status).toBe(404);
  });
});

describe("PATCH /v1/apps/{client_id}/providers/{provider_id}", () => {
  it("disables and re-enables an activated provider, reflected in the App and the App API", async () => {
    const { ws, key, app, patch } = await setup();
    const off = await patch("passport", { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: "passport", enabled: false, isActive: true, status: "activated" });
    expect(off.body.activation).toMatchObject({ status: "activated" });

    const appJson = await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(key) });
    expect(appJson.body.providers).toEqual({ passport: { enabled: false } });
    const creds = basic(app.clientId, app.clientSecret);
    const appApi = await call("GET", "/api/sandbox/v1/providers", { headers: creds });
    expect(appApi.body.find((p: Entry) => p.id === "passport").status).toBe("deactivated");
    expect(
      (await call("GET", "/api/sandbox/v1/providers?status=activated", { headers: creds })).body,
    ).toEqual([]);

    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", app.clientId)
      .where("action", "=", "app_provider.disabled")
      .executeTakeFirst();
    expect(audit).toMatchObject({
      workspaceId: ws.workspaceId,
      actorType: "api_key",
      data: { providerId: "passport" },
    });

    const on = await patch("passport", { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.enabled).toBe(true);
    const again = await call("GET", "/api/sandbox/v1/providers?status=activated", { headers: creds });
    expect(again.body.map((p: Entry) => p.id)).toEqual(["passport"]);
  });

  it("refuses providers that are not activated for the app, changing nothing", async () => {
    const { app, submit, patch } = await setup();
    expect((await submit({ nl_digid: validValues("nl_digid") })).status).toBe(200);
    for (const providerId of ["nl_digid", "de_eid"]) {
      const res = await patch(providerId, { enabled: true });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
      expect(res.body.error.details[0].path).toBe("provider_id");
      expect(res.body.error.message).toContain(
        providerId === "nl_digid" ? "activation_requested" : "not_activated",
      );
    }
    const rows = await kysely()
      .selectFrom("appProviders")
      .selectAll()
      .where("appId", "=", app.clientId)
      .orderBy("providerId", "asc")
      .execute();
    expect(rows.map((r) => [r.providerId, r.enabled])).toEqual([
      ["nl_digid", false],
      ["passport", true],
    ]);
  });

  it("is 404 for a provider outside the catalog", async () => {
    const { patch } = await setup();
    const res = await patch("no_such_provider", { enabled: true });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
  });

  it.each([
    [{}, "enabled"],
    [{ enabled: "yes" }, "enabled"],
    [{ enabled: null }, "enabled"],
    [{ enabled: true, status: "activated" }, "status"],
  ])("refuses the body %j naming the field", async (body, field) => {
    const { app, patch } = await setup();
    const res = await patch("passport", body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    const row = await appProviderRow(app.clientId, "passport");
    expect(row.enabled).toBe(true);
  });

  it("refuses other workspaces (403), other environments (404) and missing keys (401)", async () => {
    const { app } = await setup();
    const other = await makeWorkspace();
    const url = `/v1/apps/${app.clientId}/providers/passport`;
    const body = { enabled: false };
    expect((await call("PATCH", `/api/sandbox${url}`, { body })).status).toBe(401);
    const forbidden = await call("PATCH", `/api/sandbox${url}`, {
      headers: bearer(other.keys.sandbox),
      body,
    });
    expect(forbidden.status).toBe(403);
    const crossEnv = await call("PATCH", `/api/production${url}`, {
      headers: bearer(other.keys.production),
      body,
    });
    expect(crossEnv.status).toBe(404);
    const row = await appProviderRow(app.clientId, "passport");
    expect(row.enabled).toBe(true);
  });
});
