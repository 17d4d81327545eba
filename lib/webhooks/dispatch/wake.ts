/**
 * Waking the webhook dispatcher of this process directly, instead of through NOTIFY.
 * A NOTIFY serialises the commits of every transaction that sends one (PostgreSQL takes a
 * database-wide lock from before the commit until after it), so a hot writer — a session's
 * creation or state change with its outbox — that queues deliveries while this process runs a
 * dispatcher (lib/jobs/worker.ts registers it) asks the trigger not to notify
 * (`outboxWake`: the value of the outbox's `idv.webhook_wake` setting, migration 20261128010000)
 * and wakes that dispatcher itself once its change has committed (`wakeAfterCommit`).
 * Rules:
 * - only where the commit is known: a statement run on the pool (committed when it returns), or
 *   in a transaction whose commit this module is told of — `inWakingTransaction`, or
 *   `trackCommit` (a transaction whose opener tells when it committed): woken after its COMMIT,
 *   never for a rollback; inside any other transaction (an `inTransaction` of someone else), and
 *   in a process without a dispatcher (IDV_JOBS=off), the trigger notifies every instance;
 * - the dispatcher claims whatever is due, so one wake covers every delivery of the transaction;
 *   the other instances' dispatchers still find them at their next poll (at most a second),
 *   whichever claims first sends.
 * The dispatcher is kept on globalThis: the worker is started by instrumentation.ts, whose
 * modules are not the route handlers' copies.
 */
import { inTransaction, type Db } from "../../db/kysely";

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

/** Transaction handles whose commit is known here: whether a statement asked for a wake. */
const tracked = new WeakMap<Db, { wake: boolean }>();

/** How a statement writing deliveries on `db` should wake dispatchers. */
export function outboxWake(db: Db): TWakeMode {
  if (!localDispatcher()) return "notify";
  if (tracked.has(db)) return "local";
  // a transaction whose commit is not known here
  if (db.isTransaction) return "notify";
  // the pool: the statement commits on its own
  return "local";
}

/** After a statement with `mode` ran on `db`: wakes this process's dispatcher once committed. */
export function wakeAfterCommit(db: Db, mode: TWakeMode): void {
  if (mode !== "local") return;
  const transaction = tracked.get(db);
  if (transaction) transaction.wake = true;
  else wakeLocal();
}

/**
 * Tells this module that `tx` is a transaction whose opener knows its commit: the statements on
 * it wake locally; call the returned function once it has committed (never after a rollback).
 */
export function trackCommit(tx: Db): () => void {
  const transaction = { wake: false };
  tracked.set(tx, transaction);
  return () => {
    tracked.delete(tx);
    if (transaction.wake) wakeLocal();
  };
}

/**
 * `inTransaction` on `db` (the data layer's pool, or the transaction it is already in), with the
 * dispatcher of this process woken after the COMMIT when a statement in it queued deliveries.
 */
export async function inWakingTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  let committed: (() => void) | undefined;
  const result = await inTransaction(db, (tx) => {
    committed = trackCommit(tx);
    return fn(tx);
  });
  committed?.();
  return result;
}

function wakeLocal(): void {
  localDispatcher()?.wake();
}
