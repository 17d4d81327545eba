/**
 * Hot reads in plain SQL: named prepared statements on the `pg` pool Prisma shares
 * (lib/db/client.ts), each row parsed by its statement's own parser. The way to read outside a
 * transaction when a query runs on every request (credential checks, status polls): Prisma's
 * query compiler costs about 0.4 ms of CPU per query, `pg` a few hundredths (docs/benchmarks.md).
 * Rules:
 * - a statement is `defineStatement({ name, text, parse })` at module level: `name` is unique in
 *   the process (PostgreSQL prepares it once per connection, later runs only bind and execute),
 *   `text` has `$1…` placeholders and lists its columns (never `*`: a new column would change
 *   the prepared result), `parse` turns one row into the caller's type with the readers of
 *   `column` (no casts of database values);
 * - it runs on the client of getDb() (or one of createDb), never inside a transaction: reads
 *   there see the transaction's own writes and locks only through Prisma (`tx`), so a
 *   transaction's client is refused with an error; `queryAllOn` runs on one connection the
 *   caller holds instead (a transaction of its own: lib/db/statement.ts `inSqlTransaction`);
 * - columns are mapped by their database names (prisma/schema.prisma @map), timestamps are
 *   `timestamp(3)` in UTC as Prisma writes them, read back as Date; Date values are sent as UTC;
 * - errors behave as Prisma's: a database that is down or refuses connections is a SqlError the
 *   pipeline answers with 503 (lib/http/unavailable.ts follows its `cause` and `code`), anything
 *   else a 500 naming the statement in the log; a row the parser refuses is an error too.
 */
import pg from "pg";
import { poolOf, type Tx } from "./client";

type TScalar = string | number | boolean | null | Date;
/** A parameter: a scalar, or an array of them (`unnest($1::text[])` for many rows at once). */
export type TSqlValue = TScalar | readonly TScalar[];
/** One row as `pg` returns it: column name → value (text, number, boolean, JSON, text[] …). */
export type TRow = Readonly<Record<string, unknown>>;

export interface TStatement<V extends readonly TSqlValue[], T> {
  readonly name: string;
  readonly text: string;
  readonly parse: (row: TRow) => T;
  /** phantom: the parameters' types (checked where the statement runs) */
  readonly values?: V;
}

/** A failed statement: the database's (or the connection's) error as `cause`, its code kept. */
export class SqlError extends Error {
  override readonly name = "SqlError";
  readonly statement: string;
  readonly code: string | undefined;
  constructor(statement: string, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(`${statement}: ${message}`, { cause });
    this.statement = statement;
    const code = typeof cause === "object" && cause !== null ? Reflect.get(cause, "code") : undefined;
    this.code = typeof code === "string" ? code : undefined;
  }
}

/** A statement without result rows (INSERT, UPDATE, DELETE): run with `execute`. */
export interface TCommand<V extends readonly TSqlValue[]> {
  readonly name: string;
  readonly text: string;
  /** phantom: the parameters' types (checked where the command runs) */
  readonly values?: V;
}

// name → text: a name is one statement (a module evaluated twice defines the same text again)
const texts = new Map<string, string>();

function register(name: string, text: string): void {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`SQL statement name "${name}": use a-z, 0-9 and _`);
  const known = texts.get(name);
  if (known !== undefined && known !== text) throw new Error(`SQL statement "${name}" is defined twice`);
  texts.set(name, text);
}

export function defineStatement<V extends readonly TSqlValue[], T>(statement: {
  name: string;
  text: string;
  parse: (row: TRow) => T;
}): TStatement<V, T> {
  register(statement.name, statement.text);
  return statement;
}

export function defineCommand<V extends readonly TSqlValue[]>(command: {
  name: string;
  text: string;
}): TCommand<V> {
  register(command.name, command.text);
  return command;
}

// timestamps and dates stay text (parsed by column.timestamp in UTC); everything else as `pg`
// parses it by default (JSON parsed, text[] as arrays, int4 as numbers, int8 as text)
const RAW_TEXT_TYPES = new Set([1082, 1114, 1184]); // date, timestamp, timestamptz
const identity = (value: string) => value;

// `pg` types this as an overloaded (text | binary) lookup; only text is ever requested
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    RAW_TEXT_TYPES.has(oid)
      ? identity
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

type TWire = string | number | boolean | null;

// Dates as UTC text (`pg` would send local time, wrong for timestamp columns)
function wire(value: TScalar): TWire {
  return value instanceof Date ? value.toISOString() : value;
}

function isList(value: TSqlValue): value is readonly TScalar[] {
  return Array.isArray(value);
}

/** A parameter as it is sent (Dates as UTC text); lib/db/statement.ts sends them the same way. */
export function serialize(value: TSqlValue): TWire | TWire[] {
  return isList(value) ? value.map(wire) : wire(value);
}

/** SQL for parameter `$n`, a Date sent by `serialize`, as a UTC `timestamp` column value. */
export const utcParam = (n: number): string => `($${n}::timestamptz AT TIME ZONE 'UTC')`;

function poolFor(db: Tx, statement: string): pg.Pool {
  const pool = poolOf(db);
  if (!pool) {
    throw new Error(
      `${statement}: lib/db/sql.ts runs on the client of getDb() or createDb(), not inside a transaction`,
    );
  }
  return pool;
}

async function run(
  db: Tx,
  statement: { name: string; text: string },
  values: readonly TSqlValue[],
): Promise<pg.QueryResult<TRow>> {
  return runOn(poolFor(db, statement.name), statement, values);
}

async function runOn(
  queryable: pg.Pool | pg.ClientBase,
  statement: { name: string; text: string },
  values: readonly TSqlValue[],
): Promise<pg.QueryResult<TRow>> {
  try {
    return await queryable.query<TRow>({
      name: statement.name,
      text: statement.text,
      values: values.map(serialize),
      types: TYPES,
    });
  } catch (err) {
    throw new SqlError(statement.name, err);
  }
}

/** Runs `command`; the number of rows it wrote. */
export async function execute<V extends readonly TSqlValue[]>(
  db: Tx,
  command: TCommand<V>,
  values: V,
): Promise<number> {
  return (await run(db, command, values)).rowCount ?? 0;
}

/** Every row of `statement`, parsed. */
export async function queryAll<V extends readonly TSqlValue[], T>(
  db: Tx,
  statement: TStatement<V, T>,
  values: V,
): Promise<T[]> {
  return parseRows(statement, await run(db, statement, values));
}

/**
 * Every row of `statement` run on one connection of the pool that the caller holds (a
 * transaction of its own: lib/db/statement.ts `inSqlTransaction`), parsed.
 */
export async function queryAllOn<V extends readonly TSqlValue[], T>(
  connection: pg.ClientBase,
  statement: TStatement<V, T>,
  values: V,
): Promise<T[]> {
  return parseRows(statement, await runOn(connection, statement, values));
}

function parseRows<T>(statement: TStatement<readonly TSqlValue[], T>, result: pg.QueryResult<TRow>): T[] {
  const rows: T[] = [];
  for (const row of result.rows) {
    try {
      rows.push(statement.parse(row));
    } catch (err) {
      throw new Error(`${statement.name}: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
  }
  return rows;
}

/** The one row of `statement`, parsed; null when there is none (more than one is an error). */
export async function queryOne<V extends readonly TSqlValue[], T>(
  db: Tx,
  statement: TStatement<V, T>,
  values: V,
): Promise<T | null> {
  const rows = await queryAll(db, statement, values);
  if (rows.length > 1)
    throw new Error(`${statement.name}: ${rows.length} rows where at most one was expected`);
  return rows[0] ?? null;
}

function wrong(name: string, expected: string, value: unknown): Error {
  const got = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
  return new Error(`column "${name}": expected ${expected}, got ${got}`);
}

// "2026-11-24 17:48:33.123" (timestamp, DateStyle ISO); timestamptz adds "+00" or "+01:30"
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** Parses PostgreSQL's text of a timestamp (UTC unless it carries an offset); undefined if not one. */
export function parseTimestamp(text: string): Date | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const ms = m[7] ? Number(m[7].padEnd(3, "0").slice(0, 3)) : 0;
  let time = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    ms,
  );
  if (m[8]) {
    const offset = (Number(m[9]) * 60 + Number(m[10] ?? 0)) * 60_000;
    time += m[8] === "+" ? -offset : offset;
  }
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** Readers of one column of a row: the value as the type says, or an error naming the column. */
export const column = {
  text(row: TRow, name: string): string {
    const v = row[name];
    if (typeof v !== "string") throw wrong(name, "text", v);
    return v;
  },
  textOrNull(row: TRow, name: string): string | null {
    const v = row[name];
    if (v === null) return null;
    if (typeof v !== "string") throw wrong(name, "text or null", v);
    return v;
  },
  int(row: TRow, name: string): number {
    const v = row[name];
    if (typeof v !== "number" || !Number.isInteger(v)) throw wrong(name, "an integer", v);
    return v;
  },
  intOrNull(row: TRow, name: string): number | null {
    const v = row[name];
    if (v === null) return null;
    if (typeof v !== "number" || !Number.isInteger(v)) throw wrong(name, "an integer or null", v);
    return v;
  },
  boolean(row: TRow, name: string): boolean {
    const v = row[name];
    if (typeof v !== "boolean") throw wrong(name, "a boolean", v);
    return v;
  },
  timestamp(row: TRow, name: string): Date {
    const v = row[name];
    const date = typeof v === "string" ? parseTimestamp(v) : undefined;
    if (!date) throw wrong(name, "a timestamp", v);
    return date;
  },
  timestampOrNull(row: TRow, name: string): Date | null {
    return row[name] === null ? null : column.timestamp(row, name);
  },
  textArray(row: TRow, name: string): string[] {
    const v = row[name];
    if (!Array.isArray(v)) throw wrong(name, "a text array", v);
    const out: string[] = [];
    for (const item of v) {
      if (typeof item !== "string") throw wrong(`${name}[]`, "text", item);
      out.push(item);
    }
    return out;
  },
  /**
   * a json column of rows aggregated in the statement (`json_agg(json_build_object(…))`): each
   * element an object whose fields are read with these same readers (timestamps inside JSON are
   * `2026-11-24T17:48:33.123`, read by `column.timestamp` too)
   */
  jsonRows(row: TRow, name: string): TRow[] {
    const v = row[name];
    if (!Array.isArray(v)) throw wrong(name, "a JSON array", v);
    const out: TRow[] = [];
    for (const item of v) {
      if (typeof item !== "object" || item === null || Array.isArray(item))
        throw wrong(`${name}[]`, "an object", item);
      out.push(Object.fromEntries(Object.entries(item)));
    }
    return out;
  },
  /** a json/jsonb column: the parsed JSON value, for the caller's own schema */
  json(row: TRow, name: string): unknown {
    if (!(name in row)) throw wrong(name, "a JSON value", undefined);
    return row[name];
  },
};
