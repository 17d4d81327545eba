/**
 * The database of the process: one `pg` pool and the data layer on it (lib/db/kysely.ts).
 * `DATABASE_URL` must be set (the `idv` launcher sets it, starting the embedded server when none
 * is configured).
 * Rules:
 * - `kysely()` is the process's handle on its pool, made on first use and made anew after
 *   `closeDatabase()`; `createDb(url, max)` makes a handle on a pool of its own (the webhook
 *   dispatcher, the expiry sweeper, tests), ended with `db.destroy()`;
 * - waiting for a pooled connection is bounded (DATABASE_CONNECT_TIMEOUT_MS, default 5000): a
 *   pool that cannot serve answers 503 instead of hanging;
 * - a transaction left idle (its code waits for something else while holding the connection) is
 *   ended by the server after TRANSACTION_IDLE_MS, its connection freed: a stuck caller cannot
 *   keep locks for ever;
 * - an idle pooled connection that fails (the server restarted) is logged, never a crash.
 */
import pg from "pg";
import { config } from "../config";
import { logger } from "../log";
import { kyselyFor, type Db } from "./kysely";

export type { Db } from "./kysely";

/** How long a transaction may sit idle (between its statements) before the server ends it. */
export const TRANSACTION_IDLE_MS = 15_000;

const globalForDb = globalThis as unknown as { idvDb?: { db: Db; pool: pg.Pool } };

/**
 * `connectionString` with `application_name` set (what its connections show in
 * pg_stat_activity); a string that is not a URL (key=value settings) is returned as it is.
 */
export function withApplicationName(connectionString: string, name: string): string {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return connectionString;
  }
  url.searchParams.set("application_name", name);
  return url.toString();
}

function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: config().databaseConnectTimeoutMs,
    idle_in_transaction_session_timeout: TRANSACTION_IDLE_MS,
  });
  pool.on("error", (err) => logger.warn({ err }, "idle database connection failed"));
  return pool;
}

/** The data layer on a pool of its own (`max` connections); `db.destroy()` ends the pool. */
export function createDb(url: string, max = config().databasePoolSize): Db {
  return kyselyFor(createPool(url, max), { owned: true });
}

function processDb(): { db: Db; pool: pg.Pool } {
  if (!globalForDb.idvDb) {
    const url = config().databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set; start the service with `npm run dev` or `npm start`");
    const pool = createPool(url, config().databasePoolSize);
    globalForDb.idvDb = { db: kyselyFor(pool), pool };
  }
  return globalForDb.idvDb;
}

/** The data layer on the process's pool. */
export function kysely(): Db {
  return processDb().db;
}

/** The process's pool: connections open, idle, and requests waiting for one (metrics). */
export function poolStats(): { total: number; idle: number; waiting: number } {
  const pool = globalForDb.idvDb?.pool;
  return { total: pool?.totalCount ?? 0, idle: pool?.idleCount ?? 0, waiting: pool?.waitingCount ?? 0 };
}

/** Ends the process's pool (the end of a graceful stop, a test file's own database); made anew on next use. */
export async function closeDatabase(): Promise<void> {
  const current = globalForDb.idvDb;
  globalForDb.idvDb = undefined;
  if (current && !current.pool.ended && !current.pool.ending) await current.pool.end();
}
