/**
 * lib/db/kysely.ts against PostgreSQL: typed rows named as the schema's fields, timestamps in
 * UTC whatever the process's zone (and the same instants Prisma writes and reads), transactions
 * that commit or roll back as one, a handle on a Prisma transaction's own connection, prepared
 * statements run by name, and pg's errors for a database that is down (503 in the pipeline).
 */
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import pg from "pg";
import { createDb, kysely } from "./client";
import { inTransaction, prepared } from "./kysely";
import { isDatabaseUnavailable } from "../http/unavailable";
import { newId } from "../ids";

const originalZone = process.env.TZ;

afterEach(() => {
  process.env.TZ = originalZone;
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err,
  );
}

const newWorkspace = (name: string) => ({ id: newId("ws"), name, updatedAt: new Date() });

describe("the data layer", () => {
  it("writes and reads rows by the schema's field names, with timestamps in UTC in any zone", async () => {
    process.env.TZ = "America/New_York";
    const at = new Date("2026-03-08T06:30:00.123Z");
    const id = newId("ws");
    await kysely()
      .insertInto("workspaces")
      .values({ id, name: "zone", createdAt: at, updatedAt: at })
      .execute();
    const row = await kysely()
      .selectFrom("workspaces")
      .select(["id", "name", "createdAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ id, name: "zone", createdAt: at });
    // the column holds the UTC wall time
    const { rows } = await sql<{
      text: string;
    }>`SELECT created_at::text AS text FROM workspaces WHERE id = ${id}`.execute(kysely());
    expect(rows[0]!.text).toBe("2026-03-08 06:30:00.123");
  });

  it("names a row's columns in camelCase and leaves the keys of a JSON value as stored", async () => {
    const { rows } = await sql<{
      someColumn: number;
      claims: unknown;
    }>`SELECT 1 AS some_column, '{"given_name": "Ada", "opt_outs": {"bank_data_match": true}}'::jsonb AS claims`.execute(
      kysely(),
    );
    expect(rows).toEqual([
      { someColumn: 1, claims: { given_name: "Ada", opt_outs: { bank_data_match: true } } },
    ]);
  });

  it("commits a transaction as one, rolls it back on a throw, and nests into the same one", async () => {
    const kept = newWorkspace("kept");
    const lost = newWorkspace("lost");
    await inTransaction(kysely(), async (tx) => {
      await tx.insertInto("workspaces").values(kept).execute();
      await inTransaction(tx, async (inner) => {
        expect(inner).toBe(tx);
        await inner.updateTable("workspaces").set({ name: "kept twice" }).where("id", "=", kept.id).execute();
      });
    });
    const err = await rejection(
      inTransaction(kysely(), async (tx) => {
        await tx.insertInto("workspaces").values(lost).execute();
        // inside, its own write is there
        expect(
          await tx.selectFrom("workspaces").select("id").where("id", "=", lost.id).executeTakeFirst(),
        ).toEqual({
          id: lost.id,
        });
        throw new Error("changed my mind");
      }),
    );
    expect((err as Error).message).toBe("changed my mind");
    const names = await kysely()
      .selectFrom("workspaces")
      .select(["id", "name"])
      .where("id", "in", [kept.id, lost.id])
      .execute();
    expect(names).toEqual([{ id: kept.id, name: "kept twice" }]);
  });

  it("runs a prepared statement by name with its parameters in every place they appear", async () => {
    const a = newWorkspace("prepared a");
    const b = newWorkspace("prepared b");
    await kysely().insertInto("workspaces").values([a, b]).execute();
    const BY_IDS = prepared("test_kysely_workspaces_by_ids", (db, p: { ids: string[]; name: string }) =>
      db
        .selectFrom("workspaces")
        .select(["id", "name", sql<boolean>`name = ${p.name}`.as("isNamed")])
        .where(sql<boolean>`id = any(${p.ids})`)
        .orderBy("name"),
    );
    expect(BY_IDS.sql).toContain("id = any($2)");
    await inTransaction(kysely(), async (tx) => {
      const rows = await BY_IDS.run(tx, { ids: [a.id, b.id], name: "prepared b" });
      expect(rows).toEqual([
        { id: a.id, name: "prepared a", isNamed: false },
        { id: b.id, name: "prepared b", isNamed: true },
      ]);
      const statements = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements`.execute(tx);
      expect(statements.rows.map((r) => r.name)).toContain("test_kysely_workspaces_by_ids");
    });
    // on the pool (pg-pool's own query, past the executor): the same rows, named the same way
    expect(await BY_IDS.run(kysely(), { ids: [b.id], name: "prepared b" })).toEqual([
      { id: b.id, name: "prepared b", isNamed: true },
    ]);
    // the same statement again (this module loaded twice, by two route bundles) is the same one
    const again = prepared("test_kysely_workspaces_by_ids", (db, p: { ids: string[]; name: string }) =>
      db
        .selectFrom("workspaces")
        .select(["id", "name", sql<boolean>`name = ${p.name}`.as("isNamed")])
        .where(sql<boolean>`id = any(${p.ids})`)
        .orderBy("name"),
    );
    expect(again.sql).toBe(BY_IDS.sql);
    expect(() =>
      prepared("test_kysely_workspaces_by_ids", (db) => db.selectFrom("workspaces").select("id")),
    ).toThrow("defined twice");
  });

  it("drops a connection whose plan of a statement went stale under a migration, and answers 503 once", async () => {
    const table = `kysely_stale_${newId("ws").slice(3).toLowerCase()}`;
    await sql`CREATE TABLE ${sql.table(table)} (a int)`.execute(kysely());
    await sql`INSERT INTO ${sql.table(table)} VALUES (1)`.execute(kysely());
    const one = createDb(process.env.DATABASE_URL!, 1);
    try {
      const db = one;
      const ALL = prepared(`test_kysely_stale_${table}`, (q) =>
        q.selectFrom(sql`${sql.table(table)}`.as("t")).selectAll(),
      );
      expect(await ALL.run(db, {})).toEqual([{ a: 1 }]);
      // another instance's migration adds a column: the prepared `*` now has another result type
      await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN b int DEFAULT 2`.execute(kysely());
      const err = await rejection(ALL.run(db, {}));
      expect(isDatabaseUnavailable(err)).toBe(true);
      // the connection went with it: the next run prepares it anew
      expect(await ALL.run(db, {})).toEqual([{ a: 1, b: 2 }]);
    } finally {
      await one.destroy();
      await sql`DROP TABLE ${sql.table(table)}`.execute(kysely());
    }
  });

  it("a connection the server ends inside a transaction is 'database unavailable', rolled back and discarded", async () => {
    const one = createDb(process.env.DATABASE_URL!, 1);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const db = one;
      const lost = newWorkspace("lost with its connection");
      const err = await rejection(
        inTransaction(db, async (tx) => {
          await tx.insertInto("workspaces").values(lost).execute();
          const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(tx);
          // the server ends this session, as a restart would, before the transaction commits
          await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
          await tx.selectFrom("workspaces").select("id").where("id", "=", lost.id).execute();
        }),
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
      // the pool made a new connection instead of reusing the dead one (and nothing crashed)
      expect(await db.selectFrom("workspaces").select("id").where("id", "=", lost.id).execute()).toEqual([]);
    } finally {
      await admin.end();
      await one.destroy();
    }
  });

  it("waiting longer than DATABASE_CONNECT_TIMEOUT_MS for a connection is 'database unavailable', running nothing", async () => {
    process.env.DATABASE_CONNECT_TIMEOUT_MS = "200";
    const one = createDb(process.env.DATABASE_URL!, 1);
    delete process.env.DATABASE_CONNECT_TIMEOUT_MS;
    // the pool's one connection, held until the end
    let release!: () => void;
    let acquired!: () => void;
    const isHeld = new Promise<void>((resolve) => (acquired = resolve));
    const holding = one.connection().execute(() => {
      acquired();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await isHeld;
    let ran = false;
    try {
      const err = await rejection(
        inTransaction(one, async () => {
          ran = true;
        }),
      );
      expect(String(err)).toMatch(/timeout exceeded when trying to connect/);
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(ran).toBe(false);
    } finally {
      release();
      await holding;
      await one.destroy();
    }
  });

  it("fails with an error the pipeline answers with 503 when the database cannot be reached", async () => {
    const down = createDb("postgresql://idv:idv@127.0.0.1:1/none", 1);
    try {
      const err = await rejection(down.selectFrom("workspaces").select("id").execute());
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await down.destroy();
    }
  });
});

afterAll(async () => {
  await kysely().deleteFrom("workspaces").where("name", "like", "prepared %").execute();
});
