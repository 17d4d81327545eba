/**
 * lib/db/statement.ts `inSqlTransaction` against PostgreSQL: a transaction of its own on one
 * pooled connection — committed when its function returns, rolled back when it throws, its
 * writes seen by its own statements only until then, a connection it could not close discarded,
 * and failures mapped as lib/db/sql.ts maps them (503 when the database is unavailable).
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, getDb, poolOf } from "./client";
import { column, defineStatement, SqlError } from "./sql";
import { isDatabaseUnavailable } from "../http/unavailable";
import { newId } from "../ids";
import { inSqlTransaction, runStatement } from "./statement";

const url = process.env.DATABASE_URL!;

const INSERT_WORKSPACE = defineStatement<[id: string, name: string], string>({
  name: "test_sqltx_insert_workspace",
  text: "INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ($1, $2, now(), now()) RETURNING id",
  parse: (row) => column.text(row, "id"),
});

const WORKSPACE_NAME = defineStatement<[id: string], string>({
  name: "test_sqltx_workspace_name",
  text: "SELECT name FROM workspaces WHERE id = $1",
  parse: (row) => column.text(row, "name"),
});

const BACKEND = defineStatement<[], number>({
  name: "test_sqltx_backend",
  text: "SELECT pg_backend_pid() AS pid",
  parse: (row) => column.int(row, "pid"),
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err,
  );
}

async function nameOf(id: string): Promise<string | undefined> {
  return (await getDb().workspace.findUnique({ where: { id } }))?.name;
}

describe("inSqlTransaction", () => {
  const admin = new pg.Client({ connectionString: url });
  afterAll(async () => {
    await admin.end();
  });

  it("commits when its function returns: its writes are seen by its own statements, by others after", async () => {
    const id = newId("ws");
    const result = await inSqlTransaction(getDb(), async (tx) => {
      await runStatement(tx, INSERT_WORKSPACE, [id, "inside"]);
      expect(await runStatement(tx, WORKSPACE_NAME, [id])).toEqual(["inside"]);
      // another connection does not see it before the commit
      expect(await nameOf(id)).toBeUndefined();
      return "done";
    });
    expect(result).toBe("done");
    expect(await nameOf(id)).toBe("inside");
  });

  it("rolls back when its function throws, and throws that error", async () => {
    const id = newId("ws");
    const thrown = new Error("changed my mind");
    const err = await rejection(
      inSqlTransaction(getDb(), async (tx) => {
        await runStatement(tx, INSERT_WORKSPACE, [id, "never"]);
        throw thrown;
      }),
    );
    expect(err).toBe(thrown);
    expect(await nameOf(id)).toBeUndefined();
  });

  it("a failed statement is a SqlError naming it; the transaction is rolled back, the connection reused", async () => {
    const db = createDb(url, 1);
    try {
      const id = newId("ws");
      const err = await rejection(
        inSqlTransaction(db, async (tx) => {
          await runStatement(tx, INSERT_WORKSPACE, [id, "first"]);
          await runStatement(tx, INSERT_WORKSPACE, [id, "duplicate"]);
        }),
      );
      expect(err).toBeInstanceOf(SqlError);
      expect(err).toMatchObject({ statement: "test_sqltx_insert_workspace", code: "23505" });
      expect(isDatabaseUnavailable(err)).toBe(false);
      expect(await nameOf(id)).toBeUndefined();
      // the pool's one connection is back, out of any transaction
      await inSqlTransaction(db, (tx) => runStatement(tx, INSERT_WORKSPACE, [id, "second"]));
      expect(await nameOf(id)).toBe("second");
    } finally {
      await db.$disconnect();
    }
  });

  it("a connection the server ends inside the transaction is 'database unavailable' and is discarded", async () => {
    const db = createDb(url, 1);
    await admin.connect();
    try {
      const id = newId("ws");
      const err = await rejection(
        inSqlTransaction(db, async (tx) => {
          await runStatement(tx, INSERT_WORKSPACE, [id, "lost"]);
          const [pid] = await runStatement(tx, BACKEND, []);
          await admin.query("SELECT pg_terminate_backend($1)", [pid]);
          await runStatement(tx, WORKSPACE_NAME, [id]);
        }),
      );
      expect(err).toBeInstanceOf(SqlError);
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(await nameOf(id)).toBeUndefined();
      // the pool made a new connection instead of reusing the dead one
      await inSqlTransaction(db, (tx) => runStatement(tx, INSERT_WORKSPACE, [id, "again"]));
      expect(await nameOf(id)).toBe("again");
    } finally {
      await db.$disconnect();
    }
  });

  it("waiting longer than DATABASE_CONNECT_TIMEOUT_MS for a connection is 'database unavailable', running nothing", async () => {
    process.env.DATABASE_CONNECT_TIMEOUT_MS = "200";
    const db = createDb(url, 1);
    delete process.env.DATABASE_CONNECT_TIMEOUT_MS;
    const held = await poolOf(db)!.connect();
    let ran = false;
    try {
      const err = await rejection(
        inSqlTransaction(db, async () => {
          ran = true;
        }),
      );
      expect(err).toBeInstanceOf(SqlError);
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(ran).toBe(false);
    } finally {
      held.release();
      await db.$disconnect();
    }
  });

  it("refuses a Prisma transaction's client", async () => {
    const err = await rejection(getDb().$transaction((tx) => inSqlTransaction(tx, async () => "never")));
    expect(String(err)).toMatch(/inSqlTransaction runs on the client of getDb\(\) or createDb\(\)/);
  });
});
