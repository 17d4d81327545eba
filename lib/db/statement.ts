/**
 * Hand-written statements of the hot write paths (a session's creation with its outbox, a batch
 * of events, the code exchange, a session's state change), run wherever the caller is: on the
 * process's client as a named prepared statement on the shared `pg` pool (lib/db/sql.ts
 * `queryAll`: its errors, 503 when the database is down), inside the caller's Prisma transaction
 * through `$queryRawUnsafe` (same connection, same transaction, sees its writes and locks), or
 * in a transaction of their own on one pooled connection (`inSqlTransaction`: named prepared
 * statements there too, without Prisma's transaction and raw-query machinery, which cost several
 * times the statements' own CPU).
 * Rules:
 * - statements are lib/db/sql.ts `defineStatement`s (module level, unique name, `$n`
 *   placeholders, columns listed, a parser per row);
 * - one statement is atomic on its own: a statement run outside a transaction that writes
 *   several tables (data-modifying CTEs) commits all of them or none;
 * - their results hold only text, integers, booleans, text arrays and JSON, which both drivers
 *   return alike (no timestamps: those are compared in SQL or selected as text);
 * - `inSqlTransaction` commits when its function returns and rolls back when it throws; a
 *   connection that failed, or whose COMMIT or ROLLBACK failed, is discarded, never reused;
 *   Prisma cannot join it, so what needs Prisma runs in a Prisma transaction instead.
 */
import type pg from "pg";
import { logger } from "../log";
import { poolOf, type Tx } from "./client";
import { queryAll, queryAllOn, serialize, SqlError, type TRow, type TSqlValue, type TStatement } from "./sql";

/** A transaction of its own on one pooled connection (`inSqlTransaction`): statements only. */
export class SqlTransaction {
  readonly #afterCommit: (() => void)[] = [];

  constructor(readonly connection: pg.PoolClient) {}

  /** `fn` runs once the transaction has committed (never when it rolls back). */
  afterCommit(fn: () => void): void {
    this.#afterCommit.push(fn);
  }

  /** inSqlTransaction, after COMMIT; a callback's failure is not the transaction's. */
  committed(): void {
    for (const fn of this.#afterCommit.splice(0)) {
      try {
        fn();
      } catch (err) {
        logger.error({ err }, "after-commit callback failed");
      }
    }
  }
}

/** Where a statement runs: a client, a Prisma transaction, or a transaction of its own. */
export type TSqlDb = Tx | SqlTransaction;

/** Every row of `statement` run on `db` (a client or a transaction), parsed. */
export async function runStatement<V extends readonly TSqlValue[], T>(
  db: TSqlDb,
  statement: TStatement<V, T>,
  values: V,
): Promise<T[]> {
  if (db instanceof SqlTransaction) return queryAllOn(db.connection, statement, values);
  if (poolOf(db)) return queryAll(db, statement, values);
  const rows = await db.$queryRawUnsafe<TRow[]>(statement.text, ...values.map(serialize));
  return rows.map((row) => statement.parse(row));
}

async function control(connection: pg.PoolClient, command: "BEGIN" | "COMMIT" | "ROLLBACK"): Promise<void> {
  try {
    await connection.query(command);
  } catch (err) {
    throw new SqlError(command, err);
  }
}

/**
 * Runs `fn` in a transaction of its own on one connection of `db`'s pool (the client of getDb()
 * or createDb(), not a transaction): committed when `fn` returns, rolled back when it throws.
 */
export async function inSqlTransaction<T>(db: Tx, fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  if (!pool)
    throw new Error("inSqlTransaction runs on the client of getDb() or createDb(), not inside a transaction");
  let connection: pg.PoolClient;
  try {
    connection = await pool.connect();
  } catch (err) {
    throw new SqlError("BEGIN", err);
  }
  // a connection that failed, or whose transaction could not be closed, is in an unknown state:
  // pg-pool destroys a connection released with an error. Between statements a failure is an
  // "error" event (unhandled, it would end the process); the next statement then fails.
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
  };
  connection.on("error", onError);
  try {
    await control(connection, "BEGIN");
    const tx = new SqlTransaction(connection);
    const result = await fn(tx);
    await control(connection, "COMMIT");
    tx.committed();
    return result;
  } catch (err) {
    await control(connection, "ROLLBACK").catch((rollback: Error) => {
      broken ??= rollback;
    });
    throw err;
  } finally {
    connection.removeListener("error", onError);
    connection.release(broken);
  }
}
