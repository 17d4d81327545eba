/**
 * Waking the webhook dispatcher of this process directly, instead of through NOTIFY.
 * A NOTIFY serialises the commits of every transaction that sends one (PostgreSQL takes a
 * database-wide lock from before the commit until after it), so a hot writer — a session's
 * creation or state change with its outbox — that queues deliveries while this process runs a
 * dispatcher (lib/jobs/worker.ts registers it) asks the trigger not to notify
 * (`outboxWake`: the value of the outbox's `idv.webhook_wake` setting, migration 20261128010000)
 * and wakes that dispatcher itself once its change has committed (`wakeAfterCommit`).
 * Rules:
 * - only where the commit is known: a statement run on its own (committed when it returns) or in
 *   a transaction of lib/db/statement.ts (woken after its COMMIT); inside a Prisma transaction,
 *   and in a process without a dispatcher (IDV_JOBS=off), the trigger notifies every instance as
 *   before;
 * - the dispatcher claims whatever is due, so one wake covers every delivery of the transaction;
 *   the other instances' dispatchers still find them at their next poll (at most a second),
 *   whichever claims first sends.
 * The dispatcher is kept on globalThis: the worker is started by instrumentation.ts, whose
 * modules are not the route handlers' copies.
 */
import { poolOf } from "../db/client";
import { SqlTransaction, type TSqlDb } from "../db/statement";

const LOCAL_DISPATCHER = Symbol.for("idv.webhook-dispatcher");

export interface TWakeable {
  wake(): void;
}

type TGlobal = typeof globalThis & { [LOCAL_DISPATCHER]?: TWakeable };

/** The dispatcher of this process (lib/jobs/worker.ts), or undefined once stopped. */
export function setLocalDispatcher(dispatcher: TWakeable | undefined): void {
  (globalThis as TGlobal)[LOCAL_DISPATCHER] = dispatcher;
}

export function localDispatcher(): TWakeable | undefined {
  return (globalThis as TGlobal)[LOCAL_DISPATCHER];
}

export type TWakeMode = "local" | "notify";

/** How a statement writing deliveries on `db` should wake dispatchers. */
export function outboxWake(db: TSqlDb): TWakeMode {
  if (!localDispatcher()) return "notify";
  // a client of getDb()/createDb() (its statements commit on their own), not a Prisma transaction
  return db instanceof SqlTransaction || poolOf(db) ? "local" : "notify";
}

/** After a statement with `mode` ran on `db`: wakes this process's dispatcher once committed. */
export function wakeAfterCommit(db: TSqlDb, mode: TWakeMode): void {
  if (mode !== "local") return;
  if (db instanceof SqlTransaction) db.afterCommit(wakeLocal);
  else wakeLocal();
}

function wakeLocal(): void {
  localDispatcher()?.wake();
}
