/**
 * The Prisma client of the application, on the `pg` driver adapter (no native engine).
 * One client per process; `DATABASE_URL` must be set (the `idv` launcher sets it, starting the
 * embedded server when none is configured).
 * Rules:
 * - a transaction whose COMMIT or ROLLBACK fails (the server went away) gives its connection back
 *   to the pool, discarded: Prisma 6.19's transaction manager then skips the adapter's
 *   commit()/rollback(), which alone release it, so each such failure would leak one pooled
 *   connection until the pool is empty and every query waits for ever (scripts/fault-kill.mjs);
 * - waiting for a pooled connection is bounded (DATABASE_CONNECT_TIMEOUT_MS, default 5000): a
 *   pool that cannot serve answers 503 instead of hanging;
 * - one `pg` pool per client, shared by Prisma and the data layer (lib/db/kysely.ts):
 *   `poolOf(db)` finds it; `$disconnect()` ends it (also when only the data layer used it),
 *   and the process's client (getDb()) is made anew on the next call after its `$disconnect()`;
 * - an idle pooled connection that fails (the server restarted) is logged, never a crash.
 */
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { config } from "../config";
import { logger } from "../log";
import { PrismaClient } from "./generated/client";
import {
  kyselyFor,
  onPrismaTransaction,
  prismaTransactionScope,
  recordPrismaTransactionClient,
  type Db as KyselyDb,
} from "./kysely";

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type Transaction = Awaited<ReturnType<PgAdapter["startTransaction"]>>;
type SqlQuery = Parameters<Transaction["executeRaw"]>[0];

export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as {
  idvPrisma?: PrismaClient;
  idvPools?: WeakMap<object, pg.Pool>;
};

/** Releases the connection of a transaction whose closing statement failed (see the rules). */
function releasingOnFailedClose(tx: Transaction): Transaction {
  const inner = tx as Transaction & { client?: pg.PoolClient; cleanup?: () => void };
  let released = false;
  const executeRaw = tx.executeRaw.bind(tx);
  const commit = tx.commit.bind(tx);
  const rollback = tx.rollback.bind(tx);
  tx.executeRaw = async (query: SqlQuery) => {
    try {
      return await executeRaw(query);
    } catch (err) {
      if (!released && (query.sql === "COMMIT" || query.sql === "ROLLBACK") && inner.client) {
        released = true;
        inner.cleanup?.();
        // with an error, pg-pool destroys the connection instead of reusing it
        inner.client.release(err instanceof Error ? err : new Error(String(err)));
      }
      throw err;
    }
  };
  tx.commit = async () => {
    if (released) return;
    released = true;
    await commit();
  };
  tx.rollback = async () => {
    if (released) return;
    released = true;
    await rollback();
  };
  return tx;
}

class ReleasingPrismaPg extends PrismaPg {
  override async connect(): Promise<PgAdapter> {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx = releasingOnFailedClose(await startTransaction(isolationLevel));
      recordPrismaTransactionClient((tx as Transaction & { client?: pg.PoolClient }).client);
      return tx;
    };
    return adapter;
  }
}

// the pool of each client createDb made (a transaction's client has none: kyselyOf);
// on globalThis like the client itself, which outlives a reload of this module (next dev)
const pools = (globalForDb.idvPools ??= new WeakMap<object, pg.Pool>());

/** The `pg` pool behind a client made by createDb; undefined for anything else (a transaction). */
export function poolOf(db: Tx): pg.Pool | undefined {
  return pools.get(db);
}

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

export function createDb(url: string, max = config().databasePoolSize): PrismaClient {
  const connectionTimeoutMillis = config().databaseConnectTimeoutMs;
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis });
  pool.on("error", (err) => logger.warn({ err }, "idle database connection failed"));
  const db = new PrismaClient({ adapter: new ReleasingPrismaPg(pool) });
  pools.set(db, pool);
  // each interactive transaction in a scope that records its connection (kyselyOf)
  const transaction = db.$transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  db.$transaction = ((...args: unknown[]) =>
    typeof args[0] === "function"
      ? prismaTransactionScope(() => transaction(...args))
      : transaction(...args)) as PrismaClient["$transaction"];
  const disconnect = db.$disconnect.bind(db);
  db.$disconnect = async () => {
    if (globalForDb.idvPrisma === db) globalForDb.idvPrisma = undefined;
    try {
      await disconnect();
    } finally {
      if (!pool.ended && !pool.ending) await pool.end();
    }
  };
  return db;
}

export function getDb(): PrismaClient {
  if (!globalForDb.idvPrisma) {
    const url = config().databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set; start the service with `npm run dev` or `npm start`");
    globalForDb.idvPrisma = createDb(url);
  }
  return globalForDb.idvPrisma;
}

/** The process's pool: connections open, idle, and requests waiting for one (metrics). */
export function poolStats(): { total: number; idle: number; waiting: number } {
  const pool = globalForDb.idvPrisma ? poolOf(globalForDb.idvPrisma) : undefined;
  return { total: pool?.totalCount ?? 0, idle: pool?.idleCount ?? 0, waiting: pool?.waitingCount ?? 0 };
}

/** Closes the process's database client and its pool (the end of a graceful stop). */
export async function closeDatabase(): Promise<void> {
  await globalForDb.idvPrisma?.$disconnect();
}

/** The data layer (lib/db/kysely.ts) on the pool of getDb(). */
export function kysely(): KyselyDb {
  return kyselyOf(getDb());
}

/**
 * The data layer on what `db` is: its pool for a client of createDb, the connection of the
 * Prisma transaction for a transaction's client (while code moves off Prisma).
 */
export function kyselyOf(db: Tx): KyselyDb {
  const pool = poolOf(db);
  return pool ? kyselyFor(pool) : onPrismaTransaction();
}

export { Prisma } from "./generated/client";
