/**
 * lib/db/sql.ts against PostgreSQL: one pool shared with Prisma, rows parsed as Prisma would
 * return them, Dates sent as UTC, failures mapped as Prisma's are (503 when the database is
 * unavailable), and no statement inside a transaction.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../http/unavailable";
import { newId } from "../ids";
import { createDb, getDb, poolOf } from "./client";
import { column, defineCommand, defineStatement, execute, queryAll, queryOne, SqlError } from "./sql";

const url = process.env.DATABASE_URL!;

const WORKSPACE = defineStatement<
  [id: string],
  { id: string; name: string; createdAt: Date; updatedAt: Date }
>({
  name: "test_workspace",
  text: "SELECT id, name, created_at, updated_at FROM workspaces WHERE id = $1",
  parse: (row) => ({
    id: column.text(row, "id"),
    name: column.text(row, "name"),
    createdAt: column.timestamp(row, "created_at"),
    updatedAt: column.timestamp(row, "updated_at"),
  }),
});

const AS_TEXT = defineStatement<[at: Date], string>({
  name: "test_timestamp_text",
  text: "SELECT $1::timestamp(3)::text AS t",
  parse: (row) => column.text(row, "t"),
});

const RENAME = defineCommand<[id: string, name: string]>({
  name: "test_workspace_rename",
  text: "UPDATE workspaces SET name = $2 WHERE id = $1",
});

const NUMBERS = defineStatement<[values: number[]], number>({
  name: "test_unnest",
  text: "SELECT n FROM unnest($1::int[]) AS n ORDER BY n",
  parse: (row) => column.int(row, "n"),
});

const MISREAD = defineStatement<[], string>({
  name: "test_misread",
  text: "SELECT 1 AS n",
  parse: (row) => column.text(row, "n"),
});

const SLEEP = defineStatement<[], number>({
  name: "test_sleep",
  text: "SELECT 1 AS n FROM pg_sleep(30)",
  parse: (row) => column.int(row, "n"),
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err,
  );
}

describe("lib/db/sql.ts", () => {
  const admin = new pg.Client({ connectionString: url });
  afterAll(async () => {
    await admin.end();
  });

  it("reads a row exactly as Prisma returns it (timestamps in UTC, to the millisecond)", async () => {
    const db = getDb();
    const created = await db.workspace.create({
      data: { id: newId("ws"), name: "Ünïcode ’quotes’", createdAt: new Date("2026-03-01T23:59:58.123Z") },
    });
    const row = await queryOne(db, WORKSPACE, [created.id]);
    expect(row).toEqual({
      id: created.id,
      name: created.name,
      createdAt: created.createdAt,
      updatedAt: created.updatedAt,
    });
    expect(await queryOne(db, WORKSPACE, [newId("ws")])).toBeNull();
  });

  it("sends Dates as UTC whatever the process's time zone", async () => {
    const before = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect(new Date("2026-01-01T12:00:00.000Z").getHours()).toBe(7);
      expect(await queryOne(getDb(), AS_TEXT, [new Date("2026-01-01T12:00:00.250Z")])).toBe(
        "2026-01-01 12:00:00.25",
      );
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("executes commands (rows written) and takes arrays as parameters", async () => {
    const db = getDb();
    const ws = await db.workspace.create({ data: { id: newId("ws"), name: "before" } });
    expect(await execute(db, RENAME, [ws.id, "after"])).toBe(1);
    expect((await db.workspace.findUniqueOrThrow({ where: { id: ws.id } })).name).toBe("after");
    expect(await execute(db, RENAME, [newId("ws"), "nobody"])).toBe(0);
    expect(await queryAll(db, NUMBERS, [[3, 1, 2]])).toEqual([1, 2, 3]);
  });

  it("refuses a row its parser does not accept, naming the statement and the column", async () => {
    await expect(queryOne(getDb(), MISREAD, [])).rejects.toThrow(
      'test_misread: column "n": expected text, got number',
    );
  });

  it("refuses a transaction's client (its reads belong to Prisma's tx)", async () => {
    const err = await rejection(getDb().$transaction((tx) => queryOne(tx, WORKSPACE, [newId("ws")])));
    expect(String(err)).toMatch(
      /test_workspace: lib\/db\/sql\.ts runs on the client of getDb\(\) or createDb\(\)/,
    );
  });

  it("shares one pool with Prisma, and $disconnect() ends it", async () => {
    const db = createDb(url, 2);
    const pool = poolOf(db)!;
    expect(pool.totalCount).toBe(0);
    await db.workspace.findFirst();
    // Prisma's query ran on this pool: its connection is now idle there
    expect(pool.totalCount).toBe(1);
    await queryOne(db, WORKSPACE, [newId("ws")]);
    expect(pool.totalCount).toBe(1);
    await db.$disconnect();
    expect(pool.ended).toBe(true);
  });

  it("after getDb()'s $disconnect(), getDb() is a new, working client", async () => {
    const first = getDb();
    await first.$disconnect();
    const second = getDb();
    expect(second).not.toBe(first);
    expect(await queryOne(second, WORKSPACE, [newId("ws")])).toBeNull();
  });

  it("a connection the server ends mid-statement is 'database unavailable' (503), and the pool recovers", async () => {
    const db = createDb(url, 1);
    await admin.connect();
    try {
      const sleeping = rejection(queryOne(db, SLEEP, []));
      let pid: number | undefined;
      for (let i = 0; i < 100 && pid === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const found = await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)' AND pid <> pg_backend_pid()",
        );
        pid = found.rows[0]?.pid;
      }
      expect(pid).toBeDefined();
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      const err = await sleeping;
      expect(err).toBeInstanceOf(SqlError);
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(await queryOne(db, WORKSPACE, [newId("ws")])).toBeNull();
    } finally {
      await db.$disconnect();
    }
  });

  it("waiting longer than DATABASE_CONNECT_TIMEOUT_MS for a pooled connection is 'database unavailable'", async () => {
    process.env.DATABASE_CONNECT_TIMEOUT_MS = "200";
    const db = createDb(url, 1);
    delete process.env.DATABASE_CONNECT_TIMEOUT_MS;
    const held = await poolOf(db)!.connect();
    try {
      const err = await rejection(queryOne(db, WORKSPACE, [newId("ws")]));
      expect(err).toBeInstanceOf(SqlError);
      expect(String(err)).toMatch(/timeout exceeded when trying to connect/);
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      held.release();
      await db.$disconnect();
    }
  });
});
