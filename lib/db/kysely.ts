/**
 * The data layer: Kysely over the `pg` pool of lib/db/client.ts, typed by the row types that
 * `prisma generate` writes from prisma/schema.prisma (prisma-kysely: lib/db/generated/kysely).
 * Why Kysely: docs/decisions.md "One data layer (issue 25)".
 * Rules:
 * - `Db` is the one database handle: the pool (`kysely()`) or a transaction (`inTransaction`) — a
 *   Kysely `Transaction<DB>` is a `Kysely<DB>`, so a store function takes `Db` and runs in
 *   whichever its caller holds;
 * - tables and columns are named as the schema's models and fields (camelCase); the
 *   CamelCasePlugin maps them to the snake_case names of @map, in queries and result rows;
 * - rows are typed by the generator: select columns (or `selectAll`) and the result type
 *   follows; no casts of results, no hand-written column lists to map;
 * - timestamps are `timestamp(3)` in UTC (as the schema declares them): Date values are sent as UTC
 *   and read back as Date in UTC, whatever the process's time zone;
 * - a statement on a hot path is `prepared(name, build)`: built and compiled once, run as a
 *   named prepared statement (PostgreSQL parses and plans it once per connection);
 * - errors are pg's own: a database that is down is recognised by lib/http/unavailable.ts
 *   (503); a connection that failed is destroyed by pg-pool on release, never reused.
 */
import pg from "pg";
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  type Compilable,
  type PostgresPool,
  type PostgresCursor,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type SelectQueryBuilder,
} from "kysely";
import { clientSpan, tracingOn } from "../tracing/spans";
import type { DB } from "./generated/kysely/types";

export type { DB };
/** The one database handle: the pool, or a transaction on it. */
export type Db = Kysely<DB>;

// timestamp without time zone (1114) as UTC; everything else as pg parses it by default
const TIMESTAMP = 1114;
const TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === TIMESTAMP) return (text: string) => new Date(`${text.replace(" ", "T")}Z`);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Dates go out as UTC ISO text: a `timestamp` column drops the zone and keeps the UTC time. */
function toWire(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && value.some((v) => v instanceof Date))
    return value.map((v: unknown) => (v instanceof Date ? v.toISOString() : v));
  return value;
}

// On globalThis: Next bundles route modules apart, so this module may be loaded more than once in
// one process; the process's pool (lib/db/client.ts) is one per process and so must be what it
// shares with this module — the statement names, the handle per pool.
const shared = globalThis as unknown as {
  idvKysely?: {
    statementNames: Map<string, string>;
    byPool: WeakMap<pg.Pool, Db>;
    direct: WeakMap<Db, TClientLike>;
  };
};
const state = (shared.idvKysely ??= {
  statementNames: new Map(),
  byPool: new WeakMap(),
  direct: new WeakMap(),
});

/** Statement text → name, for the statements of `prepared` (named prepared statements). */
const statementNames = state.statementNames;

interface TClientLike {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

const COMMANDS = ["UPDATE", "DELETE", "INSERT", "SELECT", "MERGE", "COMMIT", "ROLLBACK"] as const;
type TCommand = (typeof COMMANDS)[number];
const isCommand = (command: string): command is TCommand => (COMMANDS as readonly string[]).includes(command);

/**
 * Runs `text` on `client`; with tracing on (lib/tracing), inside a client span named by the
 * prepared statement's name or by the command PostgreSQL reports (INSERT, UPDATE, SELECT …),
 * its text an attribute (values are parameters, never in it).
 */
function queryOn<R>(
  client: TClientLike,
  text: string,
  values: readonly unknown[] | undefined,
): Promise<PostgresQueryResult<R>> {
  if (!tracingOn()) return runOn<R>(client, text, values);
  const name = statementNames.get(text);
  return clientSpan(
    name ?? "query",
    { "db.system.name": "postgresql", "db.query.text": text.slice(0, 4000) },
    async (span) => {
      const result = await runOn<R>(client, text, values);
      span?.setAttribute("db.operation.name", result.command);
      if (!name) span?.updateName(result.command);
      return result;
    },
  );
}

async function runOn<R>(
  client: TClientLike,
  text: string,
  values: readonly unknown[] | undefined,
): Promise<PostgresQueryResult<R>> {
  const result = await client.query({
    text,
    values: values?.map(toWire),
    types: TYPES,
    name: statementNames.get(text),
  } as pg.QueryConfig);
  // Kysely reads the command to count affected rows (INSERT, UPDATE, DELETE, MERGE)
  return {
    command: isCommand(result.command) ? result.command : "SELECT",
    rowCount: result.rowCount ?? 0,
    rows: result.rows,
  };
}

// a named statement whose result columns changed under it (a migration added a column to a
// table it reads with `*`): this connection's plan of it is unusable, the connection is dropped
const STALE_PLAN = /cached plan must not change result type/;

/** A pool client as Kysely's driver sees it: our types, UTC dates and statement names. */
class WrappedClient implements PostgresPoolClient {
  /** the connection failed or holds a stale plan: destroyed on release, never reused */
  private broken = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly onRelease: (err?: Error | boolean) => void,
  ) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: readonly unknown[],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== "string") throw new Error("the data layer does not use cursors");
    return queryOn<R>(this.client, sqlOrCursor, parameters).catch((err: unknown) => {
      if (err instanceof Error && STALE_PLAN.test(err.message)) this.broken = true;
      throw err;
    });
  }

  /** The server ended the connection while it was checked out (pg emits 'error' on it). */
  fail(): void {
    this.broken = true;
  }

  release(err?: Error | boolean): void {
    const broken = this.broken;
    this.broken = false;
    this.onRelease(broken ? true : err);
  }
}

const wrapped = new WeakMap<pg.PoolClient, WrappedClient>();

function wrapPool(pool: pg.Pool, owned: boolean): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        const created = new WrappedClient(client, (err) => client.release(err));
        // while checked out, pg-pool listens no more: an error the server causes (a restart, a
        // terminated backend) would be an uncaught 'error' event, a crash; the query in flight
        // fails on its own, and the connection is destroyed on release
        client.on("error", () => created.fail());
        wrapper = created;
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    // `db.destroy()` ends a pool made for this handle alone; the process's pool is closed by
    // lib/db/client.ts (closeDatabase)
    end: async () => {
      if (owned && !pool.ended && !pool.ending) await pool.end();
    },
  };
}

// only the columns of a row: a JSON value keeps its keys as stored (claims such as `given_name`,
// provider ids such as `bank_data_match`); a nested row (jsonArrayFrom) names its columns itself
const plugins = [new CamelCasePlugin({ maintainNestedObjectKeys: true })];

function kyselyOnPool(pool: pg.Pool, owned: boolean): Db {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: wrapPool(pool, owned) }), plugins });
}

const byPool = state.byPool;

/**
 * The data layer on `pool` (one instance per pool); `owned`: the handle's `destroy()` ends the
 * pool (a pool made for it alone).
 */
export function kyselyFor(pool: pg.Pool, { owned = false }: { owned?: boolean } = {}): Db {
  let db = byPool.get(pool);
  if (!db) {
    db = kyselyOnPool(pool, owned);
    byPool.set(pool, db);
    state.direct.set(db, pool);
  }
  return db;
}

/** Runs `fn` in one transaction on `db` (the pool or, nested, the same transaction). */
export async function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}

// ---------------------------------------------------------------------------------------------
// Hot statements

const PARAM = Symbol("prepared parameter");

// a result column's name as the CamelCasePlugin gives it (`created_at` → `createdAt`)
const camelNames = new Map<string, string>();
function camelName(name: string): string {
  let camel = camelNames.get(name);
  if (camel === undefined) {
    // Kysely's mapper: the first character kept, later underscores dropped, the one after upper
    camel = name.slice(0, 1);
    for (let i = 1; i < name.length; i++) {
      const char = name.charAt(i);
      if (char !== "_") camel += name.charAt(i - 1) === "_" ? char.toUpperCase() : char;
    }
    camelNames.set(name, camel);
  }
  return camel;
}

/** Rows of a prepared statement named as the plugin names them: top-level columns only. */
function camelCaseRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const first = rows[0];
  if (!first) return rows;
  const keys = Object.keys(first);
  const names = keys.map(camelName);
  if (names.every((name, i) => name === keys[i])) return rows;
  return rows.map((row) => {
    const named: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) named[names[i]!] = row[keys[i]!];
    return named;
  });
}
// compiles the statements of `prepared`: compiling needs only the dialect and the plugins
const compiler = new Kysely<DB>({
  dialect: new PostgresDialect({
    pool: {
      connect: () => Promise.reject(new Error("the compiling handle never connects")),
      end: async () => undefined,
    },
  }),
  plugins,
});

interface TMarker {
  readonly [PARAM]: string;
}

function isMarker(value: unknown): value is TMarker {
  return typeof value === "object" && value !== null && PARAM in value;
}

export interface TPrepared<P, R> {
  readonly name: string;
  /** Runs the statement on `db` with `params`: its rows, typed as the built query's. */
  run(db: Db, params: P): Promise<R[]>;
  /** The statement's text (tests, EXPLAIN). */
  readonly sql: string;
}

/**
 * A statement built once and run many times as a named prepared statement. `build` receives
 * the parameters as placeholders (each may appear once or more, as a value of the query; an
 * array parameter is used as `= any(${p.ids})`, never with `in`) and returns the query; the
 * rows of `run` are typed as that query's. `name` is unique in the process (one statement).
 */
export function prepared<P extends object, R>(
  name: string,
  build: (db: Db, params: P) => Compilable<R>,
): TPrepared<P, R> {
  const placeholders = new Proxy({} as P, {
    get: (_target, key) => (typeof key === "string" ? { [PARAM]: key } : undefined),
  });
  const compiled = build(compiler, placeholders).compile();
  const order = compiled.parameters.map((value) => (isMarker(value) ? value[PARAM] : undefined));
  const fixed = compiled.parameters;
  // the same statement again is this module loaded a second time (a route bundle of its own);
  // another statement under a name already taken would run the first one's plan
  for (const [text, taken] of statementNames)
    if (taken === name && text !== compiled.sql) throw new Error(`prepared statement ${name} defined twice`);
  statementNames.set(compiled.sql, name);
  return {
    name,
    sql: compiled.sql,
    async run(db, params) {
      const values = order.map((key, i): unknown =>
        key === undefined ? fixed[i] : Reflect.get(params, key),
      );
      const direct = state.direct.get(db);
      // on the pool: pg-pool's own query (one checkout, no executor, no plugin pass); in a
      // transaction: its connection, through the executor but past the plugins
      const rows = direct
        ? (await queryOn<Record<string, unknown>>(direct, compiled.sql, values)).rows
        : await db
            .getExecutor()
            .provideConnection((connection) =>
              connection.executeQuery<Record<string, unknown>>(CompiledQuery.raw(compiled.sql, values)),
            )
            .then((result) => result.rows);
      // the rows are the built query's (its compile-time type), named as the plugin names them
      return camelCaseRows(rows) as R[];
    },
  };
}

/** `value` inside a LIKE pattern, its wildcards taken literally (backslash, the default escape). */
export function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** How many rows `query` (a filtered select without its selection) would give: one statement. */
export async function countRows<D, TB extends keyof D>(
  query: SelectQueryBuilder<D, TB, object>,
): Promise<number> {
  // the selection of a generic query cannot be resolved by the compiler: its one column is named here
  const { n } = await query
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .$castTo<{ n: string }>()
    .executeTakeFirstOrThrow();
  return Number(n);
}
