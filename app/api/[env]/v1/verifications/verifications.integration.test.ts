import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { bearer, call } from "@/lib/testing/router";
import { eventTypes, makeVerifyingApp } from "@/lib/testing/verifications";
import { countRows, inTransaction } from "@/lib/db/kysely";

function verificationRow(id: string) {
  return kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** Sets `endedAt` (and `updatedAt`) of a session, or its `expiresAt`. */
function setVerification(id: string, values: { endedAt?: Date; expiresAt?: Date }) {
  return kysely()
    .updateTable("verifications")
    .set({ ...values, updatedAt: new Date() })
    .where("id", "=", id)
    .execute();
}

const CREATED = ["verification.created", "verification.requested", "verification.workflow.started"];

describe("POST /v1/verifications", () => {
  it("creates a session with the hosted page URL and the opening events", async () => {
    const t = await makeVerifyingApp();
    const res = await t.start({ providerId: "passport", state: "xyz" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "awaiting_user_action",
      providerId: "passport",
      workflowId: t.app.defaultWorkflowId,
      flowType: "qr",
    });
    expect(res.body.verificationId).toMatch(/^ver_/);
    expect(res.body.url).toBe(`http://localhost:3000/verify/${res.body.verificationId}`);
    const ttl = Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt);
    expect(ttl).toBe(900_000);
    expect(await eventTypes(res.body.verificationId)).toEqual(CREATED);
  });

  it.each([
    [{}, "providerId", "VALIDATION_ERROR"],
    [{ providerId: "" }, "providerId", "VALIDATION_ERROR"],
    [{ providerId: "nope" }, "providerId", "PROVIDER_NOT_AVAILABLE"],
    [{ providerId: "nl_digid" }, "providerId", "PROVIDER_NOT_AVAILABLE"],
    [
      { providerId: "passport", redirect_uri: "https://evil.example.com/cb" },
      "redirect_uri",
      "VALIDATION_ERROR",
    ],
    [{ providerId: "passport", workflowId: "wf_unknown" }, "workflowId", "VALIDATION_ERROR"],
    [{ providerId: "passport", matchData: { given_name: "A" } }, "matchData", "VALIDATION_ERROR"],
    [{ providerId: "passport", flowType: "push" }, "flowType", "VALIDATION_ERROR"],
    [{ providerId: "passport", locale: "not a locale" }, "locale", "VALIDATION_ERROR"],
    [{ providerId: "passport", extra: 1 }, "extra", "VALIDATION_ERROR"],
  ])("refuses %j naming %s, writing nothing", async (body, field, code) => {
    const t = await makeVerifyingApp();
    const res = await t.start(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details[0].path).toBe(field);
    expect(await countRows(kysely().selectFrom("verifications").where("appId", "=", t.app.clientId))).toBe(0);
  });

  it("refuses a provider that is activated but disabled, and requires matchData for match providers", async () => {
    const t = await makeVerifyingApp(["bank_data_match"]);
    await kysely()
      .updateTable("appProviders")
      .set({ enabled: false, updatedAt: new Date() })
      .where("appId", "=", t.app.clientId)
      .where("providerId", "=", "passport")
      .execute();
    const disabled = await t.start({ providerId: "passport" });
    expect(disabled.status).toBe(400);
    expect(disabled.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
    const noMatchData = await t.start({ providerId: "bank_data_match" });
    expect(noMatchData.status).toBe(400);
    expect(noMatchData.body.error.details[0].path).toBe("matchData");
    const badKey = await t.start({ providerId: "bank_data_match", matchData: { shoe_size: "42" } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.details[0].path).toBe("matchData.shoe_size");
  });

  it("accepts a registered redirect_uri and a chosen workflow", async () => {
    const t = await makeVerifyingApp();
    await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { redirectUris: ["https://shop.example.com/cb"] },
    });
    const res = await t.start({
      providerId: "passport",
      redirect_uri: "https://shop.example.com/cb",
      workflowId: t.app.defaultWorkflowId,
    });
    expect(res.status).toBe(201);
    const row = await verificationRow(res.body.verificationId);
    expect(row.redirectUri).toBe("https://shop.example.com/cb");
  });

  it("refuses a workspace Bearer key with the spec's message", async () => {
    const t = await makeVerifyingApp();
    const res = await call("POST", "/api/sandbox/v1/verifications", {
      headers: bearer(t.ws.keys.sandbox),
      body: { providerId: "passport" },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("Invalid authorization scheme. Use Basic authentication");
  });
});

describe("a completed disclosure session", () => {
  it("exposes status, userinfo and evidence, with the full event sequence", async () => {
    const t = await makeVerifyingApp();
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    const before = await t.userinfo(id);
    expect(before.status).toBe(409);
    expect(before.body.error.code).toBe("VERIFICATION_NOT_COMPLETED");

    const sim = await t.simulate(id, { outcome: "success", identity: "passport-anna-eriksson" });
    expect(sim.status).toBe(200);
    expect(sim.body.status).toBe("completed");

    const status = await t.status(id);
    expect(status.body).toMatchObject({
      status: "completed",
      service_loa: 2,
      service_loa_label: "substantial",
      acr: "urn:idv:loa:2",
    });
    expect(status.body.verifiedAt).toBeTruthy();
    expect(status.text).not.toContain("Eriksson");

    const info = await t.userinfo(id);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      amr: ["passport"],
      provider_id: "passport",
      verification_model: "disclosure",
      service_loa: 2,
      service_loa_label: "substantial",
      acr: "urn:idv:loa:2",
      missing_claims: [],
      user: { given_name: "Anna", family_name: "Eriksson" },
    });
    expect(info.body.match).toBeUndefined();
    expect(info.body.sub).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(info.body.provenance._metadata.verification_id).toBe(id);
    expect(info.body.provenance.presentation.credentials[0].type).toBe("passport");

    const evidence = await t.evidence(id);
    expect(evidence.status).toBe(200);
    expect(evidence.body.names).toBe(Object.keys(evidence.body.token).join(";"));
    expect(Object.keys(evidence.body.token).length).toBeGreaterThan(0);

    expect(await eventTypes(id)).toEqual([
      ...CREATED,
      "verification.user.authentication_started",
      "verification.user.authentication_succeeded",
      "verification.completed",
    ]);

    // personal data is encrypted at rest
    const row = await verificationRow(id);
    expect(row.resultEncrypted).toMatch(/^v1\./);
    expect(row.resultEncrypted).not.toContain("Eriksson");
  });

  it("gives the same sub for the same person across apps, another for another person", async () => {
    const a = await makeVerifyingApp();
    const b = await makeVerifyingApp();
    const subOf = async (t: typeof a, identity: string) => {
      const { verificationId } = (await t.start({ providerId: "passport" })).body;
      await t.simulate(verificationId, { outcome: "success", identity });
      return (await t.userinfo(verificationId)).body.sub as string;
    };
    const anna1 = await subOf(a, "passport-anna-eriksson");
    const anna2 = await subOf(b, "passport-anna-eriksson");
    const lukas = await subOf(a, "passport-lukas-novak");
    expect(anna1).toBe(anna2);
    expect(lukas).not.toBe(anna1);
  });
});

describe("end states", () => {
  it("fails on a provider failure, with both failure events", async () => {
    const t = await makeVerifyingApp();
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    const res = await t.simulate(id, { outcome: "failure" });
    expect(res.body).toMatchObject({ status: "failed", reason: "authentication_failed" });
    expect(await eventTypes(id)).toEqual([
      ...CREATED,
      "verification.user.authentication_started",
      "verification.user.authentication_failed",
      "verification.failed",
    ]);
    expect((await t.userinfo(id)).status).toBe(409);
  });

  it("is cancelled by the end-user and by the integrator, and deletes personal data", async () => {
    const t = await makeVerifyingApp();
    const user = (await t.start({ providerId: "passport" })).body.verificationId;
    expect((await t.simulate(user, { outcome: "cancel" })).body.status).toBe("cancelled");
    expect((await eventTypes(user)).at(-1)).toBe("verification.workflow.cancelled");

    const integrator = (await t.start({ providerId: "passport" })).body.verificationId;
    const del = await t.cancel(integrator);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await t.status(integrator)).body).toMatchObject({
      status: "cancelled",
      reason: "cancelled_by_integrator",
    });
    const row = await verificationRow(integrator);
    expect(row.personalDataDeletedAt).not.toBeNull();
    expect(await eventTypes(integrator)).toEqual([...CREATED, "verification.workflow.cancelled"]);

    // terminal: cancel and simulate are refused
    const again = await t.cancel(integrator);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("VERIFICATION_TERMINAL");
    expect((await t.simulate(integrator, { outcome: "success" })).status).toBe(400);
  });

  it("expires through the simulator and at its TTL", async () => {
    // sessions at their TTL are expired by the sweep (lib/verifications/expiry-sweep.integration.test.ts)
    const t = await makeVerifyingApp();
    const simulated = (await t.start({ providerId: "passport" })).body.verificationId;
    expect((await t.simulate(simulated, { outcome: "expire" })).body.status).toBe("expired");
    expect((await eventTypes(simulated)).at(-1)).toBe("verification.session.timed_out");

    const timed = (await t.start({ providerId: "passport" })).body.verificationId;
    await setVerification(timed, { expiresAt: new Date(Date.now() - 1000) });
    const { expireIfDue } = await import("@/lib/verifications/transitions");
    await inTransaction(kysely(), (tx) => expireIfDue(tx, timed));
    expect((await t.status(timed)).body).toMatchObject({ status: "expired", reason: "session_timed_out" });
    expect(await eventTypes(timed)).toEqual([...CREATED, "verification.session.timed_out"]);
    // a session that is not due stays open
    const fresh = (await t.start({ providerId: "passport" })).body.verificationId;
    expect(await inTransaction(kysely(), (tx) => expireIfDue(tx, fresh))).toBe(false);
    expect((await t.status(fresh)).body.status).toBe("awaiting_user_action");
  });

  it("fails a workflow check with a machine-readable reason (low LoA)", async () => {
    const t = await makeVerifyingApp();
    const wf = await call("POST", `/api/sandbox/v1/apps/${t.app.clientId}/workflows`, {
      headers: bearer(t.ws.keys.sandbox),
      body: {
        name: "High assurance",
        entryNodeId: "request",
        nodes: [
          { id: "request", type: "request", next: "verify" },
          {
            id: "verify",
            type: "verification",
            next: "loa",
            config: { channel: "api", claims: ["given_name"] },
          },
          { id: "loa", type: "check-min-loa", next: "done", config: { minLoa: 2 } },
          { id: "done", type: "response" },
        ],
      },
    });
    expect(wf.status).toBe(201);
    const res = await t.start({ providerId: "passport", workflowId: wf.body.workflowId });
    expect(res.status).toBe(201);
    expect(res.body.url).toBeUndefined(); // API channel: no hosted page
    const low = await t.simulate(res.body.verificationId, {
      outcome: "success",
      identity: "passport-low-loa",
    });
    expect(low.body).toMatchObject({ status: "failed", reason: "loa_too_low" });
    expect((await eventTypes(res.body.verificationId)).slice(-2)).toEqual([
      "verification.user.authentication_succeeded",
      "verification.failed",
    ]);
  });

  it("lists requested standard claims the source did not give", async () => {
    const t = await makeVerifyingApp();
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    await t.simulate(id, { outcome: "success", identity: "passport-missing-claims" });
    const info = await t.userinfo(id);
    expect(info.status).toBe(200);
    expect(info.body.missing_claims.length).toBeGreaterThan(0);
    for (const claim of info.body.missing_claims) expect(info.body.user[claim]).toBeUndefined();
  });
});

describe("match providers", () => {
  it("per_field: verified subset in user, details with similarity", async () => {
    const t = await makeVerifyingApp(["bank_data_match"]);
    const ids = (
      await call("GET", "/api/sandbox/v1/sandbox/identities?providerId=bank_data_match", { headers: t.creds })
    ).body;
    const person = ids.find((i: { scenario: string }) => i.scenario === "success");
    const res = await t.start({
      providerId: "bank_data_match",
      matchData: {
        given_name: person.claims.given_name,
        family_name: "Wrongname",
        birthdate: person.claims.birthdate,
      },
    });
    expect(res.status).toBe(201);
    const sim = await t.simulate(res.body.verificationId, { outcome: "success", identity: person.id });
    expect(sim.body.status).toBe("completed");
    const info = (await t.userinfo(res.body.verificationId)).body;
    expect(info.verification_model).toBe("match");
    expect(info.match).toMatchObject({ matched: false, granularity: "per_field" });
    expect(info.match.submitted_fields.sort()).toEqual(["birthdate", "family_name", "given_name"]);
    expect(info.match.details.given_name).toMatchObject({
      matched: true,
      submitted_value: person.claims.given_name,
    });
    expect(info.match.details.family_name.matched).toBe(false);
    expect(typeof info.match.details.family_name.similarity).toBe("number");
    expect(info.user).toEqual({ given_name: person.claims.given_name, birthdate: person.claims.birthdate });
    expect(info.missing_claims).toEqual([]);
  });

  it("aggregate: all submitted fields when matched, none otherwise", async () => {
    const t = await makeVerifyingApp(["in_aadhaar_match"]);
    const ids = (
      await call("GET", "/api/sandbox/v1/sandbox/identities?providerId=in_aadhaar_match", {
        headers: t.creds,
      })
    ).body;
    const person = ids.find((i: { scenario: string }) => i.scenario === "success");
    const good = await t.start({
      providerId: "in_aadhaar_match",
      matchData: { name: person.claims.name, birthdate: person.claims.birthdate },
    });
    await t.simulate(good.body.verificationId, { outcome: "success", identity: person.id });
    const matched = (await t.userinfo(good.body.verificationId)).body;
    expect(matched.match).toMatchObject({ matched: true, granularity: "aggregate" });
    expect(matched.user).toEqual({ name: person.claims.name, birthdate: person.claims.birthdate });
    expect(matched.match.details.name).toEqual({ submitted_value: person.claims.name });

    const bad = await t.start({
      providerId: "in_aadhaar_match",
      matchData: { name: person.claims.name, birthdate: "1900-01-01" },
    });
    await t.simulate(bad.body.verificationId, { outcome: "success", identity: person.id });
    const unmatched = (await t.userinfo(bad.body.verificationId)).body;
    expect(unmatched.match.matched).toBe(false);
    expect(unmatched.user).toEqual({});
  });
});

describe("every flow type", () => {
  it.each([
    ["passport", "qr"],
    ["nl_digid", "redirect"],
    ["dk_mitid", "push"],
    ["eudi_wallet", "dc"],
  ])("%s over %s completes through the test helper", async (providerId, flowType) => {
    const t = await makeVerifyingApp([providerId]);
    const res = await t.start({ providerId, flowType });
    expect(res.status).toBe(201);
    expect(res.body.flowType).toBe(flowType);
    const sim = await t.simulate(res.body.verificationId, { outcome: "success" });
    expect(sim.body.status).toBe("completed");
    expect((await t.userinfo(res.body.verificationId)).body.provider_id).toBe(providerId);
  });
});

describe("isolation", () => {
  it("hides another app's sessions (404) and sessions of the other environment", async () => {
    const a = await makeVerifyingApp();
    const b = await makeVerifyingApp();
    const { verificationId: id } = (await a.start({ providerId: "passport" })).body;
    for (const res of [
      await b.status(id),
      await b.cancel(id),
      await b.userinfo(id),
      await b.evidence(id),
      await b.simulate(id, { outcome: "success" }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await a.status(id)).body.status).toBe("awaiting_user_action");
  });

  it("has no sandbox helpers in production", async () => {
    const t = await makeVerifyingApp([], "production");
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    const sim = await call("POST", `/api/production/v1/sandbox/verifications/${id}/simulate`, {
      headers: t.creds,
      body: { outcome: "success" },
    });
    expect(sim.status).toBe(404);
    const ids = await call("GET", "/api/production/v1/sandbox/identities?providerId=passport", {
      headers: t.creds,
    });
    expect(ids.status).toBe(404);
  });
});

describe("sandbox identities", () => {
  it("lists a provider's test identities and refuses unknown providers", async () => {
    const t = await makeVerifyingApp();
    const res = await call("GET", "/api/sandbox/v1/sandbox/identities?providerId=passport", {
      headers: t.creds,
    });
    expect(res.status).toBe(200);
    const scenarios = new Set(res.body.map((i: { scenario: string }) => i.scenario));
    for (const s of ["success", "failure", "cancel", "expiry", "low_loa", "missing_claims"])
      expect(scenarios.has(s)).toBe(true);
    const bad = await call("GET", "/api/sandbox/v1/sandbox/identities?providerId=nope", { headers: t.creds });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("providerId");
  });
});

describe("personal data retention", () => {
  it("wipes claims of sessions that ended before the retention period", async () => {
    const t = await makeVerifyingApp();
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    await t.simulate(id, { outcome: "success" });
    await setVerification(id, { endedAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) });
    const { retentionTask } = await import("@/lib/verifications/jobs");
    await retentionTask();
    const res = await t.userinfo(id);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe("VERIFICATION_DATA_DELETED");
    const row = await verificationRow(id);
    expect(row.resultEncrypted).toBeNull();
    expect((await t.status(id)).body.status).toBe("completed");
  });
});

describe("production-test participation", () => {
  it("counts participations and claims stamps from sessions started for a challenge", async () => {
    const { makeOperator } = await import("@/lib/testing/factories");
    const { requestProductionTest, scheduleProductionTest } = await import("@/lib/testing/production-tests");
    const t = await makeVerifyingApp();
    const operator = await makeOperator();
    const request = await requestProductionTest(t.ws.keys.sandbox, t.app.clientId);
    const { challenge } = await scheduleProductionTest(operator.operatorKey, request.request.id);

    const ok = await t.start({ providerId: "passport", challengeId: challenge.id });
    expect(ok.status).toBe(201);
    await t.simulate(ok.body.verificationId, { outcome: "success" });
    const failed = await t.start({ providerId: "passport", challengeId: challenge.id });
    await t.simulate(failed.body.verificationId, { outcome: "failure" });

    const report = await call(
      "GET",
      `/api/sandbox/v1/apps/${t.app.clientId}/production-tests/${challenge.id}/report`,
      {
        headers: bearer(t.ws.keys.sandbox),
      },
    );
    expect(report.status).toBe(200);
    expect(report.body.stats).toMatchObject({ totalParticipations: 2, totalClaims: 1 });
    expect(report.body.stats.providerBreakdown).toEqual([
      { providerId: "passport", providerName: expect.any(String), claimCount: 1 },
    ]);

    const unknown = await t.start({ providerId: "passport", challengeId: "chl_unknown" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("challengeId");
  });
});
