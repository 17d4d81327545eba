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
 *   pool that cannot serve answers 503 instead of hanging.
 */
import type { PoolClient } from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { config } from "../config";
import { PrismaClient } from "./generated/client";

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type Transaction = Awaited<ReturnType<PgAdapter["startTransaction"]>>;
type SqlQuery = Parameters<Transaction["executeRaw"]>[0];

export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as { idvPrisma?: PrismaClient };

/** Releases the connection of a transaction whose closing statement failed (see the rules). */
function releasingOnFailedClose(tx: Transaction): Transaction {
  const inner = tx as Transaction & { client?: PoolClient; cleanup?: () => void };
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
    adapter.startTransaction = async (isolationLevel) =>
      releasingOnFailedClose(await startTransaction(isolationLevel));
    return adapter;
  }
}

export function createDb(url: string, max = config().databasePoolSize): PrismaClient {
  const connectionTimeoutMillis = config().databaseConnectTimeoutMs;
  return new PrismaClient({
    adapter: new ReleasingPrismaPg({ connectionString: url, max, connectionTimeoutMillis }),
  });
}

export function getDb(): PrismaClient {
  if (!globalForDb.idvPrisma) {
    const url = config().databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set; start the service with `npm run dev` or `npm start`");
    globalForDb.idvPrisma = createDb(url);
  }
  return globalForDb.idvPrisma;
}

export { Prisma } from "./generated/client";
