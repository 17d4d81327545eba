/**
 * The pool survives transactions whose connection dies before COMMIT (a PostgreSQL restart under
 * load, scripts/fault-kill.mjs): each one's connection goes back to the pool, so later queries
 * still get one.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "./client";

describe("database client after connections died inside transactions", () => {
  const url = process.env.DATABASE_URL!;
  const db = createDb(url, 2);
  const admin = new pg.Client({ connectionString: url });
  afterAll(async () => {
    await db.$disconnect();
    await admin.end();
  });

  it("still serves queries when more transactions than the pool size lost their connection", async () => {
    await admin.connect();
    const failures: string[] = [];
    for (let i = 0; i < 4; i++) {
      try {
        await db.$transaction(async (tx) => {
          const rows = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          // the server ends this session, as a restart would, before the transaction commits
          await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
        });
      } catch (err) {
        failures.push((err as Error).name);
      }
    }
    expect(failures).toHaveLength(4);
    const rows = await db.$queryRaw<{ one: number }[]>`SELECT 1 AS one`;
    expect(rows).toEqual([{ one: 1 }]);
  });
});
