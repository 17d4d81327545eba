/**
 * A connection deleted by another transaction between the Operator API's read and its write:
 * the PUT or DELETE answers 404 RESOURCE_NOT_FOUND "Resource not found", what Prisma's P2025 (an
 * update or delete of a missing row) gave through the pipeline, and writes nothing.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { putTestConnection, testOperatorKey } from "../testing/connections";
import { bearer, call, type CallResult } from "../testing/router";
import { isolateTestDatabase } from "../testing/webhooks";
import { deleteConnectionRow, readConnection } from "./store/connections";

// connections are environment-wide: this file keeps its own database
isolateTestDatabase();

const SETTINGS = { issuer: "https://eid.example.test", clientId: "broker-client", clientSecret: "s3cret" };

/** Whether a statement on provider_connections waits for a lock (another transaction's row). */
async function writeWaiting(): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock'
       AND query ILIKE '%provider_connections%'`.execute(kysely());
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * Runs `request` while another transaction deletes the connection and holds its commit until the
 * request's write waits for it: the request read the row, its write then finds none.
 */
async function racingADelete(providerId: string, request: () => Promise<CallResult>): Promise<CallResult> {
  const row = await readConnection(kysely(), "sandbox", providerId);
  if (!row) throw new Error("no connection to delete");
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = () => resolve();
  });
  let deleted: () => void = () => undefined;
  const rowDeleted = new Promise<void>((resolve) => {
    deleted = () => resolve();
  });
  const other = kysely()
    .transaction()
    .execute(async (tx) => {
      await deleteConnectionRow(tx, row.id);
      deleted();
      await held;
    });
  await rowDeleted;
  const answer = request();
  const deadline = Date.now() + 10_000;
  while (!(await writeWaiting()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  release();
  await other;
  return answer;
}

describe("a connection deleted while the Operator API changes it", () => {
  it("PUT answers 404 RESOURCE_NOT_FOUND and creates nothing", async () => {
    await putTestConnection("sandbox", "ch_swissid", { adapter: "oidc", settings: SETTINGS });
    const headers = bearer(await testOperatorKey());
    const res = await racingADelete("ch_swissid", () =>
      call("PUT", "/api/sandbox/v1/operator/connections/ch_swissid", {
        headers,
        body: { adapter: "oidc", enabled: false, settings: SETTINGS },
      }),
    );
    expect([res.status, res.body.error?.code, res.body.error?.message]).toEqual([
      404,
      "RESOURCE_NOT_FOUND",
      "Resource not found",
    ]);
    expect(await readConnection(kysely(), "sandbox", "ch_swissid")).toBeUndefined();
  });

  it("DELETE answers 404 RESOURCE_NOT_FOUND", async () => {
    await putTestConnection("sandbox", "fr_franceconnect", { adapter: "oidc", settings: SETTINGS });
    const headers = bearer(await testOperatorKey());
    const res = await racingADelete("fr_franceconnect", () =>
      call("DELETE", "/api/sandbox/v1/operator/connections/fr_franceconnect", { headers }),
    );
    expect([res.status, res.body.error?.code, res.body.error?.message]).toEqual([
      404,
      "RESOURCE_NOT_FOUND",
      "Resource not found",
    ]);
  });
});
