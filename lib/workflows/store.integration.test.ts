/**
 * lib/workflows/store.ts against PostgreSQL: its rows are the tables' rows (every column, JSON
 * documents with their keys as stored — a provider id in a node's overrides and node ids in
 * positions have underscores, which the data layer would rename in a jsonb it reads —, timestamps
 * in UTC), in the order the service relies on.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { bearer, call } from "../testing/router";
import { makeVerifyingApp } from "../testing/verifications";
import { createWorkflow, workflowBody } from "../testing/workflows";
import {
  findWorkflowVersion,
  listCaseRows,
  listWorkflowVersionRows,
  lockWorkflowRow,
  recentDecisions,
} from "./store";

async function setup() {
  const t = await makeVerifyingApp(["passport", "bank_data_match"]);
  const body = workflowBody();
  const nodes = body.nodes.map((node) =>
    node.type === "verification"
      ? { ...node, config: { ...node.config, providers: { bank_data_match: { enabled: false } } } }
      : node,
  );
  const positions = { start: { x: 0, y: 0 }, verify: { x: 10, y: 20 } };
  const wf = await createWorkflow(t.ws.keys.sandbox, t.app.clientId, { ...body, nodes, positions });
  const base = `/api/sandbox/v1/apps/${t.app.clientId}/workflows/${wf.workflowId}`;
  return { t, wf, base, headers: bearer(t.ws.keys.sandbox) };
}

describe("the workflows store", () => {
  it("reads and writes workflows and versions, every column, JSON keys as stored", async () => {
    const { wf, base, headers } = await setup();
    const positions = { start: { x: 1, y: 2 }, verify: { x: 3, y: 4 } };
    const patched = await call("PATCH", base, { headers, body: { positions } });
    expect(patched.status, patched.text).toBe(200);
    // the row the update returned keeps the node's overrides, keyed by provider id
    const verify = patched.body.nodes.find((n: { id: string }) => n.id === "verify");
    expect(verify.config.providers).toEqual({ bank_data_match: { enabled: false } });

    const db = kysely();
    const row = await lockWorkflowRow(db, wf.workflowId);
    expect(row).toEqual(
      await db.selectFrom("workflows").selectAll().where("id", "=", wf.workflowId).executeTakeFirst(),
    );
    expect(row?.version).toBe(2);
    expect(row?.positions).toEqual(positions);
    expect(JSON.stringify(row?.nodes)).toContain('"bank_data_match"');
    expect(await lockWorkflowRow(db, "wf_missing")).toBeUndefined();

    for (const version of [1, 2]) {
      const stored = await findWorkflowVersion(db, wf.workflowId, version);
      expect(stored).toEqual(
        await db
          .selectFrom("workflowVersions")
          .selectAll()
          .where("workflowId", "=", wf.workflowId)
          .where("version", "=", version)
          .executeTakeFirst(),
      );
      expect(stored?.version).toBe(version);
      expect(JSON.stringify(stored?.nodes)).toContain('"bank_data_match"');
    }
    expect(await findWorkflowVersion(db, wf.workflowId, 3)).toBeUndefined();

    const listed = await listWorkflowVersionRows(db, wf.workflowId, { limit: 1, offset: 1 });
    // newest first: the page of one after the first is version 1
    expect(listed).toEqual({ total: 2, rows: [await findWorkflowVersion(db, wf.workflowId, 1)] });
    expect(listed.rows.map((r) => r.version)).toEqual([1]);
  });

  it("lists cases oldest first, every column", async () => {
    const { wf, base, headers } = await setup();
    for (const name of ["first", "second", "third"]) {
      const created = await call("POST", `${base}/cases`, {
        headers,
        body: {
          name,
          providerId: "passport",
          identityId: "passport-anna-eriksson",
          expectedOutcome: "completed",
        },
      });
      expect(created.status, created.text).toBe(201);
    }
    const rows = await listCaseRows(kysely(), wf.workflowId);
    expect(rows.map((r) => r.name)).toEqual(["first", "second", "third"]);
    const stored = await kysely()
      .selectFrom("workflowCases")
      .selectAll()
      .where("workflowId", "=", wf.workflowId)
      .execute();
    const byName = new Map(stored.map((r) => [r.name, r]));
    expect(rows).toEqual(["first", "second", "third"].map((name) => byName.get(name)));
    expect(rows[0]).toMatchObject({
      workflowId: wf.workflowId,
      providerId: "passport",
      identityId: "passport-anna-eriksson",
      expectedOutcome: "completed",
    });
  });

  it("reads decision records newest first with their facts' keys as stored", async () => {
    const { t, wf } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const started = await t.start({ providerId: "passport", workflowId: wf.workflowId });
      expect(started.status, started.text).toBe(201);
      const id = started.body.verificationId as string;
      const done = await t.simulate(id, { outcome: "success", identity: "passport-anna-eriksson" });
      expect(done.status, done.text).toBe(200);
      ids.push(id);
    }
    await kysely()
      .updateTable("verificationDecisions")
      .set({ facts: JSON.stringify({ "claim:given_name": { exists: true }, birth_date: false }) })
      .where("verificationId", "=", ids[0]!)
      .execute();

    const read = async (workflowId?: string, limit = 10) =>
      recentDecisions(kysely(), {
        appId: t.app.clientId,
        environment: "sandbox",
        ...(workflowId ? { workflowId } : {}),
        limit,
      });
    // the decisions as stored, newest first (ties by id, descending), with their session's creation
    const decisions = await kysely()
      .selectFrom("verificationDecisions")
      .selectAll()
      .where("appId", "=", t.app.clientId)
      .where("environment", "=", "sandbox")
      .execute();
    const sessions = await kysely()
      .selectFrom("verifications")
      .select(["id", "createdAt"])
      .where("id", "in", ids)
      .execute();
    const createdAt = new Map(sessions.map((v) => [v.id, v.createdAt]));
    const rows = decisions.toSorted(
      (a, b) =>
        b.decidedAt.getTime() - a.decidedAt.getTime() ||
        (a.verificationId < b.verificationId ? 1 : a.verificationId > b.verificationId ? -1 : 0),
    );
    const expected = rows.map((r) => ({
      verificationId: r.verificationId,
      createdAt: createdAt.get(r.verificationId),
      providerId: r.providerId,
      loa: r.loa,
      claimsPresent: r.claimsPresent,
      facts: r.facts,
      outcome: r.outcome,
      reasonCode: r.reasonCode,
      path: r.path,
    }));
    expect(expected.map((r) => r.verificationId).sort()).toEqual([...ids].sort());
    expect(await read()).toEqual(expected);
    expect(await read(wf.workflowId, 1)).toEqual(expected.slice(0, 1));
    expect(await read("wf_other")).toEqual([]);
    expect((await read()).at(-1)?.facts).toEqual({ "claim:given_name": { exists: true }, birth_date: false });
  });
});
