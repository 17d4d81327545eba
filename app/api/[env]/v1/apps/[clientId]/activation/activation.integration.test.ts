import { describe, expect, it } from "vitest";
import { STATE_CONFLICT_CODE } from "@/lib/activation/state-machine";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { validValues } from "@/lib/testing/activation";
import { startJobWorkerForTests } from "@/lib/testing/jobs";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { waitFor } from "@/lib/testing/jobs";
import { basic, bearer, call } from "@/lib/testing/router";

type Entry = Record<string, unknown> & {
  id: string;
  status: string;
  activation: {
    status: string;
    id?: string;
    requirements: Array<{ id: string; [k: string]: unknown }>;
  } & Record<string, unknown>;
};

// the real job worker runs the demo activations
startJobWorkerForTests();

async function setup(env: "sandbox" | "production" = "sandbox") {
  const ws = await makeWorkspace();
  const key = env === "sandbox" ? ws.keys.sandbox : ws.keys.production;
  const app = await makeApp(key, env);
  const submit = (body: unknown, headers: Record<string, string> = {}) =>
    call("POST", `/api/${env}/v1/apps/${app.clientId}/activation`, {
      headers: { ...bearer(key), ...headers },
      body,
    });
  const list = async () =>
    (
      await call<Entry[]>("GET", `/api/${env}/v1/apps/${app.clientId}/providers?include=activation`, {
        headers: bearer(key),
      })
    ).body;
  return { ws, key, app, submit, list };
}

/** What exists for the app besides the starter passport: rows, tickets, company info. */
async function written(appId: string) {
  const [rows, tickets, app] = await Promise.all([
    kysely()
      .selectFrom("appProviders")
      .selectAll()
      .where("appId", "=", appId)
      .where("providerId", "<>", "passport")
      .execute(),
    countRows(kysely().selectFrom("activationTickets").where("appId", "=", appId)),
    kysely().selectFrom("apps").selectAll().where("id", "=", appId).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => `${r.providerId}:${r.status}`), tickets, companyInfo: app.companyInfo };
}

const ticketRow = (id: string) =>
  kysely().selectFrom("activationTickets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const NOTHING = { rows: [], tickets: 0, companyInfo: {} };

describe("POST /v1/apps/{client_id}/activation", () => {
  it("activates a direct provider at once with a ticket, enabled for the app", async () => {
    const { ws, key, app, submit, list } = await setup();
    const res = await submit({ providers: { de_eid: {} } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [entry] = res.body;
    expect(entry).toMatchObject({
      id: "de_eid",
      status: "activated",
      isActive: true,
      enabled: true,
      needAction: false,
    });
    expect(entry!.activation).toMatchObject({ status: "activated", requirements: [] });
    expect(entry!.activation.id).toMatch(/^act_[0-9A-Z]{26}$/);
    expect(entry!.activation.requestedAt).toEqual(expect.any(String));
    expect(entry!.activation.activatedAt).toEqual(expect.any(String));

    const ticket = await ticketRow(entry!.activation.id!);
    expect(ticket).toMatchObject({
      status: "activated",
      providerId: "de_eid",
      workspaceId: ws.workspaceId,
      environment: "sandbox",
    });
    expect(ticket.activatedAt).not.toBeNull();
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", ticket.id)
      .where("action", "=", "activation.submitted")
      .executeTakeFirst();
    expect(audit).toMatchObject({ actorType: "api_key", data: { from: "not_activated", to: "activated" } });

    const appJson = await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(key) });
    expect(appJson.body.providers).toEqual({ de_eid: { enabled: true }, passport: { enabled: true } });
    expect((await list()).map((p) => p.id)).toEqual(["passport", "de_eid"]);
    const appApi = await call("GET", "/api/sandbox/v1/providers?status=activated", {
      headers: basic(app.clientId, app.clientSecret),
    });
    expect(appApi.body.map((p: Entry) => p.id)).toEqual(["passport", "de_eid"]);
  });

  it("requests review for a registration provider and remembers the company information", async () => {
    const { app, submit } = await setup();
    const values = validValues("nl_digid", { legalCompanyName: "  Acme B.V. " });
    const res = await submit({ providers: { nl_digid: values } });
    expect(res.status).toBe(200);
    const [entry] = res.body;
    expect(entry).toMatchObject({
      id: "nl_digid",
      status: "activation_requested",
      isActive: false,
      enabled: false,
    });
    expect(entry!.activation).not.toHaveProperty("activatedAt");
    const name = entry!.activation.requirements.find((r: { id: string }) => r.id === "legalCompanyName")!;
    expect(name).toMatchObject({ submittedValue: "Acme B.V.", currentValue: "Acme B.V." });

    const ticket = await ticketRow(entry!.activation.id!);
    expect(ticket.status).toBe("activation_requested");
    expect(ticket.submitted).toMatchObject({ legalCompanyName: "Acme B.V.", userDataLevel: "basic" });
    const row = await kysely()
      .selectFrom("apps")
      .selectAll()
      .where("id", "=", app.clientId)
      .executeTakeFirstOrThrow();
    expect(row.companyInfo).toMatchObject({
      legalCompanyName: "Acme B.V.",
      registrationNumber: values.registrationNumber,
      contactEmail: values.contactEmail,
    });
    expect(row.companyInfo).not.toHaveProperty("userDataLevel");
  });

  it("demo: activates registration and contract providers in the sandbox about a second later", async () => {
    const { app, submit, list } = await setup();
    const started = Date.now();
    const res = await submit({ providers: { nl_digid: validValues("nl_digid"), se_bankid: {} }, demo: true });
    expect(res.status).toBe(200);
    expect(res.body.map((p: Entry) => [p.id, p.status])).toEqual([
      ["nl_digid", "activation_processing"],
      ["se_bankid", "activation_processing"],
    ]);
    const activated = await waitFor(
      async () => {
        const entries = await list();
        const mine = entries.filter((p) => p.id === "nl_digid" || p.id === "se_bankid");
        return mine.length === 2 && mine.every((p) => p.status === "activated") ? mine : undefined;
      },
      // the delay is the job's run_at; how soon after it a worker runs depends on the machine
      10_000,
      50,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    for (const p of activated) {
      expect(p).toMatchObject({ isActive: true, enabled: true, needAction: false });
      expect(p.activation.activatedAt).toEqual(expect.any(String));
    }
    const tickets = await kysely()
      .selectFrom("activationTickets")
      .selectAll()
      .where("appId", "=", app.clientId)
      .execute();
    for (const t of tickets) {
      // activated by the job about a second after the request, never at once
      expect(t.activatedAt!.getTime() - started).toBeGreaterThanOrEqual(900);
    }
    expect(tickets.map((t) => [t.providerId, t.status, t.demo]).sort()).toEqual([
      ["nl_digid", "activated", true],
      ["se_bankid", "activated", true],
    ]);
    const audits = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where(
        "targetId",
        "in",
        tickets.map((t) => t.id),
      )
      .where("action", "=", "activation.demo_completed")
      .execute();
    expect(audits).toHaveLength(2);
    expect(audits.every((a) => a.actorType === "system")).toBe(true);
  });

  it("refuses demo in production, writing nothing", async () => {
    const { app, submit } = await setup("production");
    const res = await submit({ providers: { nl_digid: validValues("nl_digid") }, demo: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0].path).toBe("demo");
    expect(await written(app.clientId)).toEqual(NOTHING);
  });

  it("keeps a contract provider not_activated without demo: added, no ticket, support contact shown", async () => {
    const { app, submit } = await setup("production");
    const res = await submit({ providers: { uk_gov_one_login: {} } });
    expect(res.status).toBe(200);
    const [entry] = res.body;
    expect(entry).toMatchObject({
      id: "uk_gov_one_login",
      status: "not_activated",
      isActive: false,
      enabled: false,
    });
    expect(entry!.activation).not.toHaveProperty("id");
    expect(entry!.activation.requirements).toEqual([
      expect.objectContaining({ id: "supportContact", type: "info", value: expect.stringContaining("@") }),
    ]);
    expect(await written(app.clientId)).toEqual({ ...NOTHING, rows: ["uk_gov_one_login:not_activated"] });
    // submitting again changes nothing and is not an error
    expect((await submit({ providers: { uk_gov_one_login: {} } })).status).toBe(200);
    expect((await written(app.clientId)).tickets).toBe(0);
  });

  it("is all-or-nothing: one invalid provider refuses the whole request", async () => {
    const { app, submit } = await setup();
    const res = await submit({
      providers: { de_eid: {}, nl_digid: validValues("nl_digid", { contactEmail: "nope" }), nope: {} },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "providers.nl_digid.contactEmail",
      "providers.nope",
    ]);
    expect(await written(app.clientId)).toEqual(NOTHING);
  });

  it.each([
    ["an unknown provider", { providers: { nope: {} } }, "providers.nope"],
    [
      "a missing requirement",
      { providers: { nl_digid: validValues("nl_digid", { legalCompanyName: undefined }) } },
      "providers.nl_digid.legalCompanyName",
    ],
    [
      "an empty requirement",
      { providers: { nl_digid: validValues("nl_digid", { displayName: "   " }) } },
      "providers.nl_digid.displayName",
    ],
    [
      "a too long value",
      { providers: { nl_digid: validValues("nl_digid", { displayName: "x".repeat(61) }) } },
      "providers.nl_digid.displayName",
    ],
    [
      "a non-string text",
      { providers: { nl_digid: validValues("nl_digid", { legalCompanyName: 5 }) } },
      "providers.nl_digid.legalCompanyName",
    ],
    [
      "a malformed email",
      { providers: { nl_digid: validValues("nl_digid", { contactEmail: "a@b" }) } },
      "providers.nl_digid.contactEmail",
    ],
    [
      "a malformed url",
      { providers: { nl_digid: validValues("nl_digid", { privacyPolicyUrl: "example.com" }) } },
      "providers.nl_digid.privacyPolicyUrl",
    ],
    [
      "an unknown select value",
      { providers: { nl_digid: validValues("nl_digid", { userDataLevel: "all" }) } },
      "providers.nl_digid.userDataLevel",
    ],
    [
      "an unchecked consent",
      { providers: { dk_mitid: validValues("dk_mitid", { termsAccepted: false }) } },
      "providers.dk_mitid.termsAccepted",
    ],
    [
      "an unknown checkbox option",
      { providers: { be_itsme: validValues("be_itsme", { dataPurposes: ["spam"] }) } },
      "providers.be_itsme.dataPurposes",
    ],
    [
      "an empty checkbox selection",
      { providers: { be_itsme: validValues("be_itsme", { dataPurposes: [] }) } },
      "providers.be_itsme.dataPurposes",
    ],
    [
      "an unknown requirement id",
      { providers: { nl_digid: validValues("nl_digid", { color: "red" }) } },
      "providers.nl_digid.color",
    ],
    ["values for a direct provider", { providers: { de_eid: { pin: "123456" } } }, "providers.de_eid.pin"],
    [
      "a value for the info entry",
      { providers: { se_bankid: { supportContact: "me" } } },
      "providers.se_bankid.supportContact",
    ],
    ["no providers", { providers: {} }, "providers"],
    ["providers missing", {}, "providers"],
    ["providers as an array", { providers: ["de_eid"] }, "providers"],
    ["values that are not an object", { providers: { de_eid: "yes" } }, "providers.de_eid"],
    ["a non-boolean demo", { providers: { de_eid: {} }, demo: "yes" }, "demo"],
    ["an unknown field", { providers: { de_eid: {} }, force: true }, "force"],
  ])("refuses %s naming the field, writing nothing", async (_label, body, field) => {
    const { app, submit } = await setup();
    const res = await submit(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(await written(app.clientId)).toEqual(NOTHING);
  });

  it("does not enforce the advisory pattern", async () => {
    const { submit } = await setup();
    const res = await submit({
      providers: { nl_digid: validValues("nl_digid", { registrationNumber: "#42 (pending)" }) },
    });
    expect(res.status).toBe(200);
  });

  it("refuses a provider already activated or under review, naming its status", async () => {
    const { app, submit } = await setup();
    const activated = await submit({ providers: { passport: {} } });
    expect(activated.status).toBe(409);
    expect(activated.body.error.code).toBe(STATE_CONFLICT_CODE);
    expect(activated.body.error.details).toEqual([
      { path: "providers.passport", message: "is already activated" },
    ]);

    expect((await submit({ providers: { nl_digid: validValues("nl_digid") } })).status).toBe(200);
    const before = await written(app.clientId);
    const again = await submit({ providers: { nl_digid: validValues("nl_digid"), de_eid: {} } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain("activation_requested");
    expect(again.body.error.details[0].path).toBe("providers.nl_digid");
    // the direct provider of the same request was not activated either
    expect(await written(app.clientId)).toEqual(before);
  });

  it("replays an idempotent submission without a second ticket", async () => {
    const { app, submit } = await setup();
    const body = { providers: { nl_digid: validValues("nl_digid") } };
    const first = await submit(body, { "idempotency-key": "activate-1" });
    const second = await submit(body, { "idempotency-key": "activate-1" });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotency-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect((await written(app.clientId)).tickets).toBe(1);
  });

  it("serialises concurrent submissions: one ticket per provider", async () => {
    const { app, submit } = await setup();
    const body = { providers: { nl_digid: validValues("nl_digid") } };
    const results = await Promise.all([submit(body), submit(body), submit(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await written(app.clientId)).tickets).toBe(1);
  });

  it("refuses missing keys (401), other workspaces (403) and other environments (404)", async () => {
    const { app } = await setup();
    const other = await makeWorkspace();
    const url = `/v1/apps/${app.clientId}/activation`;
    const body = { providers: { de_eid: {} } };
    const none = await call("POST", `/api/sandbox${url}`, { body });
    expect(none.status).toBe(401);
    const appCreds = await call("POST", `/api/sandbox${url}`, {
      headers: basic(app.clientId, app.clientSecret),
      body,
    });
    expect(appCreds.status).toBe(401);
    const forbidden = await call("POST", `/api/sandbox${url}`, { headers: bearer(other.keys.sandbox), body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("RESOURCE_FORBIDDEN");
    const crossEnv = await call("POST", `/api/production${url}`, {
      headers: bearer(other.keys.production),
      body,
    });
    expect(crossEnv.status).toBe(404);
    expect(crossEnv.body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect(await written(app.clientId)).toEqual(NOTHING);
  });
});
