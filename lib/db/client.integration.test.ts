/**
 * The pool survives transactions whose connection dies before COMMIT (a PostgreSQL restart under
 * load, scripts/fault-kill.mjs): each one's connection is discarded, so later queries get a new
 * one — more such failures than the pool has connections leave it serving.
 */
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "./client";
import { inTransaction } from "./kysely";

describe("the database pool after connections died inside transactions", () => {
  const url = process.env.DATABASE_URL!;
  const db = createDb(url, 2);
  const admin = new pg.Client({ connectionString: url });
  afterAll(async () => {
    await db.destroy();
    await admin.end();
  });

  it("still serves queries when more transactions than the pool size lost their connection", async () => {
    await admin.connect();
    const failures: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      await inTransaction(db, async (tx) => {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(tx);
        // the server ends this session, as a restart would, before the transaction commits
        await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
      }).catch((err: unknown) => failures.push(err));
    }
    expect(failures).toHaveLength(4);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
