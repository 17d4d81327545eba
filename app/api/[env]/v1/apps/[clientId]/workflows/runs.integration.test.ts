/**
 * Workflow runs for the editor: test runs, decision records of real sessions, what-if over them
 * and regression cases — through the real routes and database.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows, likeLiteral } from "@/lib/db/kysely";
import { newId } from "@/lib/ids";
import { findProvider } from "@/lib/providers/catalog";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";
import { activateProviders, makeVerifyingApp } from "@/lib/testing/verifications";
import { createWorkflow, type TNodeBody } from "@/lib/testing/workflows";

/** Disables an app's provider (the row must exist). */
async function disableProvider(appId: string, providerId: string) {
  await kysely()
    .updateTable("appProviders")
    .set({ enabled: false, updatedAt: new Date() })
    .where("appId", "=", appId)
    .where("providerId", "=", providerId)
    .returning("providerId")
    .executeTakeFirstOrThrow();
}

const PROVIDERS = ["passport", "de_eid", "bank_data_match"];

function draft(minLoa = 2, extra: { verification?: Record<string, unknown>; checks?: TNodeBody[] } = {}) {
  const checks = extra.checks ?? [];
  const chain = [{ id: "loa", type: "check-min-loa", config: { minLoa } }, ...checks].map((n, i, all) => ({
    ...n,
    next: all[i + 1]?.id ?? "end",
  }));
  return {
    entryNodeId: "start",
    nodes: [
      { id: "start", type: "request", next: "verify" },
      {
        id: "verify",
        type: "verification",
        next: "loa",
        config: { channel: "api", claims: ["given_name", "family_name", "birthdate"], ...extra.verification },
      },
      ...chain,
      { id: "end", type: "response" },
    ] as TNodeBody[],
  };
}

async function setup() {
  const s = await makeVerifyingApp(PROVIDERS);
  const key = s.ws.keys.sandbox;
  const base = `/api/sandbox/v1/apps/${s.app.clientId}/workflows`;
  return { ...s, key, base, headers: bearer(key) };
}

const testRun = (base: string, headers: Record<string, string>, body: Record<string, unknown>) =>
  call("POST", `${base}/test-run`, { headers, body });

/** Every string value of a provider's test identities, to look for in what must hold none. */
function personalValues(providerId: string): string[] {
  const values = new Set<string>();
  for (const t of findProvider(providerId)!.testIdentities)
    for (const v of Object.values(t.claims)) {
      if (typeof v === "string" && v.length > 3) values.add(v);
      if (v && typeof v === "object")
        for (const part of Object.values(v))
          if (typeof part === "string" && part.length > 3) values.add(part);
    }
  return [...values];
}

describe("POST /v1/apps/{client_id}/workflows/test-run", () => {
  it("passing, low-LoA and mismatch identities take different paths; nothing is created", async () => {
    const { base, headers, app } = await setup();
    const pass = await testRun(base, headers, {
      workflow: draft(2),
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
    });
    expect(pass.status).toBe(200);
    expect(pass.body).toEqual({
      outcome: "completed",
      path: ["start", "verify", "loa", "end"],
      nodes: {
        start: { result: "passed" },
        verify: { result: "passed" },
        loa: { result: "passed" },
        end: { result: "passed" },
      },
      loa: findProvider("de_eid")!.testIdentities[0]!.loa,
      claims: { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" },
    });

    const low = await testRun(base, headers, {
      workflow: draft(2),
      providerId: "de_eid",
      identityId: "de_eid-low-loa",
    });
    expect(low.status).toBe(200);
    expect(low.body).toMatchObject({
      outcome: "failed",
      reasonCode: "loa_too_low",
      path: ["start", "verify", "loa"],
      nodes: { verify: { result: "passed" }, loa: { result: "failed", reason: "loa_too_low" } },
      loa: 1,
      claims: {},
    });

    // match provider: the mismatch identity's register differs in family name and birthdate
    const matchDraft = draft(1, {
      checks: [
        {
          id: "needs",
          type: "check-claim",
          config: { claimChecks: [{ source: "user", field: "family_name" }] },
        },
      ],
    });
    const matched = await testRun(base, headers, {
      workflow: matchDraft,
      providerId: "bank_data_match",
      identityId: "bank_data_match-max-mustermann",
    });
    expect(matched.body).toMatchObject({
      outcome: "completed",
      path: ["start", "verify", "loa", "needs", "end"],
    });
    expect(matched.body.claims).toMatchObject({ given_name: "Max", family_name: "Mustermann" });
    const mismatch = await testRun(base, headers, {
      workflow: matchDraft,
      providerId: "bank_data_match",
      identityId: "bank_data_match-mismatch",
    });
    expect(mismatch.body).toMatchObject({
      outcome: "failed",
      reasonCode: "missing_claim",
      path: ["start", "verify", "loa", "needs"],
      nodes: { needs: { result: "failed", reason: "missing_claim" } },
    });

    // an identity that never authenticates ends at the verification node
    const failure = await testRun(base, headers, {
      workflow: draft(2),
      providerId: "de_eid",
      identityId: "de_eid-failure",
    });
    expect(failure.body).toEqual({
      outcome: "failed",
      reasonCode: "authentication_failed",
      path: ["start", "verify"],
      nodes: { start: { result: "passed" }, verify: { result: "failed", reason: "authentication_failed" } },
      loa: 0,
      claims: {},
    });

    expect(await countRows(kysely().selectFrom("verifications").where("appId", "=", app.clientId))).toBe(0);
    expect(
      await countRows(kysely().selectFrom("verificationDecisions").where("appId", "=", app.clientId)),
    ).toBe(0);
  });

  it("age_verification discloses only the age result, as userinfo does", async () => {
    const { base, headers } = await setup();
    const res = await testRun(base, headers, {
      workflow: {
        ...draft(1, { verification: { mode: "age_verification", minimumAge: 18 } }),
        name: "x",
        positions: {},
      },
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
    });
    expect(res.status).toBe(200);
    expect(res.body.claims).toEqual({ age_over_18: true });
  });

  it("an invalid draft is 400 with the validate details; bad provider and identity name their field", async () => {
    const { base, headers, app } = await setup();
    const broken = draft(2);
    broken.nodes[1]!.config = { channel: "api", claims: ["not_a_claim"] };
    const invalid = await testRun(base, headers, {
      workflow: broken,
      providerId: "de_eid",
      identityId: "de_eid-failure",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("VALIDATION_ERROR");
    expect(invalid.body.error.details).toContainEqual(
      expect.objectContaining({ path: "nodes[1].config.claims[0]", nodeId: "verify" }),
    );

    const shape = await testRun(base, headers, {
      workflow: { nodes: [] },
      providerId: "de_eid",
      identityId: "x",
    });
    expect(shape.status).toBe(400);
    expect(shape.body.error.details).toContainEqual(
      expect.objectContaining({ path: "workflow.entryNodeId" }),
    );

    await disableProvider(app.clientId, "passport");
    const disabled = await testRun(base, headers, {
      workflow: draft(2),
      providerId: "passport",
      identityId: "passport-anna-eriksson",
    });
    expect(disabled.status).toBe(400);
    expect(disabled.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(disabled.body.error.details).toEqual([{ path: "providerId", message: expect.any(String) }]);

    const optedOut = draft(2, { verification: { providers: { de_eid: { enabled: false } } } });
    const refused = await testRun(base, headers, {
      workflow: optedOut,
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe("providerId");

    const unknownProvider = await testRun(base, headers, {
      workflow: draft(),
      providerId: "nope",
      identityId: "x",
    });
    expect(unknownProvider.body.error.details).toEqual([{ path: "providerId", message: expect.any(String) }]);
    const otherIdentity = await testRun(base, headers, {
      workflow: draft(),
      providerId: "de_eid",
      identityId: "passport-anna-eriksson",
    });
    expect(otherIdentity.status).toBe(400);
    expect(otherIdentity.body.error.details).toEqual([{ path: "identityId", message: expect.any(String) }]);
  });

  it("is 404 in production; viewers may run it; other workspaces may not", async () => {
    const { ws, base, headers, app } = await setup();
    const prodApp = await makeApp(ws.keys.production, "production");
    const prod = await call("POST", `/api/production/v1/apps/${prodApp.clientId}/workflows/test-run`, {
      headers: bearer(ws.keys.production),
      body: { workflow: draft(), providerId: "de_eid", identityId: "de_eid-erika-mustermann" },
    });
    expect(prod.status).toBe(404);
    expect(prod.body.error.code).toBe("ROUTE_NOT_FOUND");

    const viewer = await addMember(ws.workspaceId, "viewer");
    const asViewer = await testRun(base, await sessionHeaders(viewer.userId), {
      workflow: draft(),
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
    });
    expect(asViewer.status).toBe(200);

    const other = await makeWorkspace();
    const foreign = await testRun(base, bearer(other.keys.sandbox), {
      workflow: draft(),
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
    });
    expect(foreign.status).toBe(403);
    expect(headers).toBeDefined();
    expect(app.clientId).toMatch(/^app_/);
  });
});

/** Sessions of `workflowId` driven by the sandbox test helper, newest last. */
async function runSessions(
  s: Awaited<ReturnType<typeof setup>>,
  workflowId: string,
  sessions: { providerId: string; identity: string; outcome?: string; matchData?: Record<string, unknown> }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const x of sessions) {
    const started = await s.start({
      providerId: x.providerId,
      workflowId,
      ...(x.matchData ? { matchData: x.matchData } : {}),
    });
    expect(started.status, started.text).toBe(201);
    const id = started.body.verificationId as string;
    const done = await s.simulate(id, { outcome: x.outcome ?? "success", identity: x.identity });
    expect(done.status, done.text).toBe(200);
    ids.push(id);
  }
  return ids;
}

describe("decision records", () => {
  it("are written when sessions complete or fail, with no personal values", async () => {
    const s = await setup();
    const wf = await createWorkflow(s.key, s.app.clientId, { name: "Policy", ...draft(2) });
    const [completed, lowLoa, authFailed, cancelled, matchSession] = await runSessions(s, wf.workflowId, [
      { providerId: "de_eid", identity: "de_eid-erika-mustermann" },
      { providerId: "de_eid", identity: "de_eid-low-loa" },
      { providerId: "de_eid", identity: "de_eid-failure" },
      { providerId: "de_eid", identity: "de_eid-cancel" },
      {
        providerId: "bank_data_match",
        identity: "bank_data_match-mismatch",
        matchData: { given_name: "Max", family_name: "Mustermann", birthdate: "1975-02-28" },
      },
    ]);
    const rows = await kysely()
      .selectFrom("verificationDecisions")
      .selectAll()
      .where("appId", "=", s.app.clientId)
      .execute();
    const byId = new Map(rows.map((r) => [r.verificationId, r]));
    expect(byId.has(cancelled!)).toBe(false);
    expect(rows).toHaveLength(4);

    const versionOf = async (id: string) =>
      (
        await kysely()
          .selectFrom("verifications")
          .select("workflowVersion")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).workflowVersion;
    expect(byId.get(completed!)).toMatchObject({
      workflowId: wf.workflowId,
      workflowVersion: await versionOf(completed!),
      providerId: "de_eid",
      verificationNodeId: "verify",
      loa: 3,
      // everything the source vouched for (the engine's input), not only what the node requested
      claimsPresent: ["address", "birthdate", "family_name", "given_name", "name", "nationality"],
      match: null,
      outcome: "completed",
      reasonCode: null,
      path: ["start", "verify", "loa", "end"],
      environment: "sandbox",
      workspaceId: s.ws.workspaceId,
    });
    expect(byId.get(lowLoa!)).toMatchObject({
      loa: 1,
      outcome: "failed",
      reasonCode: "loa_too_low",
      path: ["start", "verify", "loa"],
    });
    expect(byId.get(authFailed!)).toMatchObject({
      loa: null,
      claimsPresent: [],
      outcome: "failed",
      reasonCode: "authentication_failed",
      path: ["start", "verify"],
    });
    expect(byId.get(matchSession!)).toMatchObject({
      providerId: "bank_data_match",
      match: { matched: false },
      outcome: "completed",
    });
    const verdicts = byId.get(matchSession!)!.match as { fields: Record<string, boolean> };
    for (const v of Object.values(verdicts.fields)) expect(typeof v).toBe("boolean");

    const stored = JSON.stringify(rows);
    for (const value of [...personalValues("de_eid"), ...personalValues("bank_data_match"), "1975-02-28"])
      expect(stored, value).not.toContain(value);
  });
});

describe("POST /v1/apps/{client_id}/workflows/what-if", () => {
  it("re-runs a changed draft over recorded sessions: counts, examples, filters", async () => {
    const s = await setup();
    const wf = await createWorkflow(s.key, s.app.clientId, { name: "Policy", ...draft(2) });
    const [erika, anna, low] = await runSessions(s, wf.workflowId, [
      { providerId: "de_eid", identity: "de_eid-erika-mustermann" }, // LoA 3
      { providerId: "passport", identity: "passport-anna-eriksson" }, // LoA 2
      { providerId: "de_eid", identity: "de_eid-low-loa" }, // LoA 1
    ]);
    const other = await createWorkflow(s.key, s.app.clientId, { name: "Other", ...draft(1) });
    await runSessions(s, other.workflowId, [{ providerId: "de_eid", identity: "de_eid-low-loa" }]);

    const same = await call("POST", `${s.base}/what-if`, {
      headers: s.headers,
      body: { workflow: draft(2), workflowId: wf.workflowId },
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ total: 3, changedOutcomes: 0, changedPaths: 0, cannotTell: 0, examples: [] });

    const stricter = await call("POST", `${s.base}/what-if`, {
      headers: s.headers,
      body: { workflow: draft(3), workflowId: wf.workflowId },
    });
    expect(stricter.body).toMatchObject({ total: 3, changedOutcomes: 1, changedPaths: 1, cannotTell: 0 });
    expect(stricter.body.examples).toEqual([
      {
        verificationId: anna,
        createdAt: expect.any(String),
        before: { outcome: "completed", path: ["start", "verify", "loa", "end"] },
        after: { outcome: "failed", reasonCode: "loa_too_low", path: ["start", "verify", "loa"] },
      },
    ]);

    // all sessions of the app (4), newest first with a limit
    const looser = await call("POST", `${s.base}/what-if`, {
      headers: s.headers,
      body: { workflow: draft(1) },
    });
    expect(looser.body).toMatchObject({ total: 4, changedOutcomes: 1 });
    expect(looser.body.examples.map((e: { verificationId: string }) => e.verificationId)).toEqual([low]);
    const limited = await call("POST", `${s.base}/what-if`, {
      headers: s.headers,
      body: { workflow: draft(1), limit: 1 },
    });
    expect(limited.body.total).toBe(1);

    // a value test the records cannot answer
    const byBirthdateValue = draft(1, {
      checks: [
        {
          id: "de",
          type: "evaluate",
          config: { conditions: [{ source: "claim", field: "birthdate", op: "gte", value: "1970-01-01" }] },
        },
      ],
    });
    const unknown = await call("POST", `${s.base}/what-if`, {
      headers: s.headers,
      body: { workflow: byBirthdateValue, workflowId: wf.workflowId },
    });
    expect(unknown.body).toMatchObject({ total: 3, cannotTell: 3 });
    expect(erika).toBeDefined();

    const invalid = await call("POST", `${s.base}/what-if`, {
      headers: s.headers,
      body: { workflow: { entryNodeId: "nope", nodes: [] } },
    });
    expect(invalid.status).toBe(400);
    const badLimit = await call("POST", `${s.base}/what-if`, {
      headers: s.headers,
      body: { workflow: draft(), limit: 1001 },
    });
    expect(badLimit.body.error.details).toEqual([{ path: "limit", message: expect.any(String) }]);

    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const asViewer = await call("POST", `${s.base}/what-if`, {
      headers: await sessionHeaders(viewer.userId),
      body: { workflow: draft(3) },
    });
    expect(asViewer.status).toBe(200);
    const foreign = await call("POST", `${s.base}/what-if`, {
      headers: bearer((await makeWorkspace()).keys.sandbox),
      body: { workflow: draft(3) },
    });
    expect(foreign.status).toBe(403);
  });
});

describe("regression cases", () => {
  it("create, list with results against the saved workflow, run on a draft, delete", async () => {
    const s = await setup();
    const wf = await createWorkflow(s.key, s.app.clientId, { name: "Policy", ...draft(2) });
    const cases = `${s.base}/${wf.workflowId}/cases`;
    const create = (body: Record<string, unknown>, headers = s.headers) =>
      call("POST", cases, { headers, body });

    const adult = await create({
      name: "Erika passes",
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
      expectedOutcome: "completed",
    });
    expect(adult.status).toBe(201);
    expect(adult.body).toEqual({
      id: expect.stringMatching(/^wfc_/),
      name: "Erika passes",
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
      expectedOutcome: "completed",
      result: { outcome: "completed", passed: true },
    });
    const anna = await create({
      name: "Passport completes",
      providerId: "passport",
      identityId: "passport-anna-eriksson",
      expectedOutcome: "completed",
    });
    const low = await create({
      name: "Low LoA fails",
      providerId: "de_eid",
      identityId: "de_eid-low-loa",
      expectedOutcome: "failed",
    });
    expect(low.body.result).toEqual({ outcome: "failed", reasonCode: "loa_too_low", passed: true });

    const list = await call("GET", cases, { headers: s.headers });
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([adult.body.id, anna.body.id, low.body.id]);

    const run = await call("POST", `${cases}/run`, { headers: s.headers, body: { workflow: draft(3) } });
    expect(run.status).toBe(200);
    expect(run.body.map((c: { result: unknown }) => c.result)).toEqual([
      { outcome: "completed", passed: true },
      { outcome: "failed", reasonCode: "loa_too_low", passed: false },
      { outcome: "failed", reasonCode: "loa_too_low", passed: true },
    ]);

    // the saved workflow changes: the list follows it
    await call("PATCH", `${s.base}/${wf.workflowId}`, {
      headers: s.headers,
      body: { nodes: draft(3).nodes },
    });
    const after = await call("GET", cases, { headers: s.headers });
    expect(after.body[1].result.passed).toBe(false);

    // a provider the app no longer has enabled: the case fails instead of the list
    await disableProvider(s.app.clientId, "passport");
    const disabled = await call("GET", cases, { headers: s.headers });
    expect(disabled.body[1].result).toEqual({
      outcome: "failed",
      reasonCode: "provider_not_available",
      passed: false,
    });

    const del = await call("DELETE", `${cases}/${anna.body.id}`, { headers: s.headers });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    expect((await call("DELETE", `${cases}/${anna.body.id}`, { headers: s.headers })).status).toBe(404);
    expect((await call("GET", cases, { headers: s.headers })).body).toHaveLength(2);
    expect(
      await countRows(
        kysely()
          .selectFrom("auditEvents")
          .where("action", "like", `${likeLiteral("workflow_case.")}%`)
          .where("workspaceId", "=", s.ws.workspaceId),
      ),
    ).toBe(4);
  });

  it("validation, other workflows, roles, other workspaces and production", async () => {
    const s = await setup();
    const wf = await createWorkflow(s.key, s.app.clientId, { name: "Policy", ...draft(2) });
    const cases = `${s.base}/${wf.workflowId}/cases`;
    const body = {
      name: "Case",
      providerId: "de_eid",
      identityId: "de_eid-erika-mustermann",
      expectedOutcome: "completed",
    };

    const bad = await call("POST", cases, {
      headers: s.headers,
      body: { ...body, expectedOutcome: "maybe", extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "expectedOutcome",
      "extra",
    ]);
    const wrongIdentity = await call("POST", cases, {
      headers: s.headers,
      body: { ...body, identityId: "nope" },
    });
    expect(wrongIdentity.body.error.details).toEqual([{ path: "identityId", message: expect.any(String) }]);

    const created = await call("POST", cases, { headers: s.headers, body });
    const otherWf = await createWorkflow(s.key, s.app.clientId, { name: "Other", ...draft(1) });
    expect(
      (
        await call("DELETE", `${s.base}/${otherWf.workflowId}/cases/${created.body.id}`, {
          headers: s.headers,
        })
      ).status,
    ).toBe(404);
    expect((await call("GET", `${s.base}/wf_nope/cases`, { headers: s.headers })).status).toBe(404);
    const invalidDraft = await call("POST", `${cases}/run`, {
      headers: s.headers,
      body: { workflow: { entryNodeId: "x", nodes: [] } },
    });
    expect(invalidDraft.status).toBe(400);

    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const viewerHeaders = await sessionHeaders(viewer.userId);
    expect((await call("GET", cases, { headers: viewerHeaders })).status).toBe(200);
    expect(
      (await call("POST", `${cases}/run`, { headers: viewerHeaders, body: { workflow: draft() } })).status,
    ).toBe(200);
    const refused = await call("POST", cases, { headers: viewerHeaders, body });
    expect(refused.status).toBe(403);
    expect((await call("DELETE", `${cases}/${created.body.id}`, { headers: viewerHeaders })).status).toBe(
      403,
    );
    const developer = await addMember(s.ws.workspaceId, "developer");
    expect(
      (await call("POST", cases, { headers: await sessionHeaders(developer.userId), body })).status,
    ).toBe(201);

    const foreign = bearer((await makeWorkspace()).keys.sandbox);
    expect((await call("GET", cases, { headers: foreign })).status).toBe(403);
    expect((await call("POST", cases, { headers: foreign, body })).status).toBe(403);

    const prodApp = await makeApp(s.ws.keys.production, "production");
    await activateProviders(prodApp.clientId, ["de_eid"]);
    const prodBase = `/api/production/v1/apps/${prodApp.clientId}/workflows/${prodApp.defaultWorkflowId}/cases`;
    const prodHeaders = bearer(s.ws.keys.production);
    for (const [method, url, b] of [
      ["GET", prodBase, undefined],
      ["POST", prodBase, body],
      ["POST", `${prodBase}/run`, { workflow: draft() }],
      // a well-formed case id: a malformed one is refused (404 RESOURCE_NOT_FOUND) before the route
      ["DELETE", `${prodBase}/${newId("wfc")}`, undefined],
    ] as const) {
      const res = await call(method, url, { headers: prodHeaders, ...(b ? { body: b } : {}) });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error.code).toBe("ROUTE_NOT_FOUND");
    }
  });
});
