import { describe, expect, it } from "vitest";
import { pipeline } from "../http/pipeline";
import { REST } from "../http/surfaces";
import { isDatabaseUnavailable } from "../http/unavailable";
import { createDb, poolOf, type Tx } from "./client";
import { column, defineCommand, defineStatement, parseTimestamp, queryOne, SqlError } from "./sql";

describe("parseTimestamp", () => {
  it("reads PostgreSQL's text of timestamp(3) as UTC", () => {
    expect(parseTimestamp("2026-11-24 17:48:33.123")?.toISOString()).toBe("2026-11-24T17:48:33.123Z");
    expect(parseTimestamp("2026-11-24 17:48:33")?.toISOString()).toBe("2026-11-24T17:48:33.000Z");
    expect(parseTimestamp("2026-11-24 17:48:33.1")?.toISOString()).toBe("2026-11-24T17:48:33.100Z");
    // timestamp(6): microseconds are cut to milliseconds, as Prisma does
    expect(parseTimestamp("2026-11-24 17:48:33.123999")?.toISOString()).toBe("2026-11-24T17:48:33.123Z");
  });

  it("reads the ISO form of to_json (inside aggregated rows)", () => {
    expect(parseTimestamp("2026-11-24T17:48:33.123")?.toISOString()).toBe("2026-11-24T17:48:33.123Z");
  });

  it("applies the offset of timestamptz text", () => {
    expect(parseTimestamp("2026-11-24 17:48:33.5+00")?.toISOString()).toBe("2026-11-24T17:48:33.500Z");
    expect(parseTimestamp("2026-11-24 17:48:33+01")?.toISOString()).toBe("2026-11-24T16:48:33.000Z");
    expect(parseTimestamp("2026-11-24 17:48:33-05:30")?.toISOString()).toBe("2026-11-24T23:18:33.000Z");
  });

  it("refuses what is not a timestamp in the ISO DateStyle", () => {
    for (const text of [
      "",
      "infinity",
      "11/24/2026 17:48:33",
      "2026-11-24",
      "2026-11-24 17:48",
      "x2026-11-24 17:48:33",
    ]) {
      expect(parseTimestamp(text)).toBeUndefined();
    }
  });
});

describe("column readers", () => {
  const row = {
    s: "text",
    n: 42,
    f: 1.5,
    b: true,
    nil: null,
    t: "2026-01-02 03:04:05.006",
    arr: ["a", "b"],
    mixed: ["a", 1],
    obj: { a: 1 },
    rows: [{ id: "x", at: "2026-01-02T03:04:05.006" }],
  };

  it("return values of the expected type, null where allowed", () => {
    expect(column.text(row, "s")).toBe("text");
    expect(column.textOrNull(row, "nil")).toBeNull();
    expect(column.int(row, "n")).toBe(42);
    expect(column.intOrNull(row, "nil")).toBeNull();
    expect(column.boolean(row, "b")).toBe(true);
    expect(column.timestamp(row, "t").toISOString()).toBe("2026-01-02T03:04:05.006Z");
    expect(column.timestampOrNull(row, "nil")).toBeNull();
    expect(column.textArray(row, "arr")).toEqual(["a", "b"]);
    expect(column.json(row, "obj")).toEqual({ a: 1 });
    const [first] = column.jsonRows(row, "rows");
    expect(column.text(first!, "id")).toBe("x");
    expect(column.timestamp(first!, "at").toISOString()).toBe("2026-01-02T03:04:05.006Z");
  });

  it("throw an error naming the column for anything else", () => {
    expect(() => column.text(row, "n")).toThrow('column "n": expected text, got number');
    expect(() => column.text(row, "nil")).toThrow('column "nil": expected text, got null');
    expect(() => column.text(row, "missing")).toThrow('column "missing": expected text, got undefined');
    expect(() => column.int(row, "f")).toThrow('column "f": expected an integer');
    expect(() => column.boolean(row, "s")).toThrow('column "s": expected a boolean');
    expect(() => column.timestamp(row, "s")).toThrow('column "s": expected a timestamp');
    expect(() => column.textArray(row, "mixed")).toThrow('column "mixed[]": expected text, got number');
    expect(() => column.jsonRows(row, "arr")).toThrow('column "arr[]": expected an object, got string');
    expect(() => column.json(row, "missing")).toThrow('column "missing": expected a JSON value');
  });
});

describe("defineStatement", () => {
  it("refuses a name PostgreSQL would fold or quote", () => {
    expect(() => defineStatement({ name: "Bad-Name", text: "SELECT 1", parse: () => 1 })).toThrow(/a-z, 0-9/);
  });

  it("refuses one name for two different statements, accepts the same one again", () => {
    defineStatement({ name: "unit_twice", text: "SELECT 1 AS n", parse: (r) => column.int(r, "n") });
    expect(() =>
      defineStatement({ name: "unit_twice", text: "SELECT 1 AS n", parse: (r) => column.int(r, "n") }),
    ).not.toThrow();
    expect(() => defineCommand({ name: "unit_twice", text: "SELECT 2" })).toThrow(/defined twice/);
  });

  it("runs only on a client of createDb: anything else (a transaction's client) is refused", async () => {
    const statement = defineStatement<[], number>({
      name: "unit_refused",
      text: "SELECT 1 AS n",
      parse: (r) => column.int(r, "n"),
    });
    const notAClient = {} as Tx;
    await expect(queryOne(notAClient, statement, [])).rejects.toThrow(
      "unit_refused: lib/db/sql.ts runs on the client of getDb() or createDb(), not inside a transaction",
    );
  });
});

describe("a database that refuses connections", () => {
  const ONE = defineStatement<[], number>({
    name: "unit_one",
    text: "SELECT 1 AS n",
    parse: (r) => column.int(r, "n"),
  });

  it("is a SqlError that the pipeline answers with 503 SERVICE_UNAVAILABLE and Retry-After", async () => {
    const db = createDb("postgresql://idv:idv@127.0.0.1:1/idv", 1);
    let thrown: unknown;
    const res = await pipeline(REST, async () => {
      try {
        await queryOne(db, ONE, []);
      } catch (err) {
        thrown = err;
        throw err;
      }
      return new Response(null);
    })(new Request("http://localhost:3000/api/sandbox/v1/apps"), {});
    await db.$disconnect();
    expect(thrown).toBeInstanceOf(SqlError);
    expect((thrown as SqlError).message).toMatch(/^unit_one: /);
    expect((thrown as SqlError).statement).toBe("unit_one");
    expect(isDatabaseUnavailable(thrown)).toBe(true);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
  });

  it("$disconnect() ends the pool even when only lib/db/sql.ts used it", async () => {
    const db = createDb("postgresql://idv:idv@127.0.0.1:1/idv", 1);
    await queryOne(db, ONE, []).catch(() => undefined);
    const pool = poolOf(db)!;
    expect(pool.ended).toBe(false);
    await db.$disconnect();
    expect(pool.ended).toBe(true);
  });
});
