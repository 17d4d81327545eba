/**
 * Sessions end at their TTL through a periodic sweep, not one job per session (a job queued with
 * each session was about a third of the database's work of a creation: docs/decisions.md,
 * "Performance (issue 15)").
 * Rules:
 * - a sweep expires every open session whose expiresAt has passed, in batches of at most
 *   EXPIRY_BATCH_SIZE, each batch one transaction on the data layer (lib/webhooks/dispatch/wake.ts
 *   `inWakingTransaction`: `inTransaction` that wakes this process's webhook dispatcher after
 *   the commit), on `db`'s pool: the due sessions locked in one statement with SKIP
 *   LOCKED, then each expired through the state table with its `session.timed_out` event and
 *   webhook deliveries, one statement each (transitions.ts `expireDueSessions`, the same moves
 *   as the per-session `expireIfDue`); it goes on while a batch comes back full;
 * - any number of sweeps at once (instances, a sweeper and the cron run) never expire a session
 *   twice and never wait for one another or for a session's own transition: a locked session is
 *   left to the next batch;
 * - every job worker runs an `ExpirySweeper` (lib/jobs/worker.ts): a sweep at start, then
 *   IDV_EXPIRY_SWEEP_MS after the previous one ended, on one connection of its own (requests
 *   queueing for the shared pool do not hold it up); the `verification_expiry_sweep` cron job
 *   sweeps once a minute as a backstop (lib/jobs/definitions.ts);
 * - a batch that fails is rolled back whole and swept again next time; the timer never keeps the
 *   process alive; after `stop()` no batch starts, the one under way is waited for, and the
 *   connection is closed.
 */
import { createDb, withApplicationName, type Db } from "../db/client";
import { logger } from "../log";
import { inWakingTransaction } from "../webhooks/dispatch/wake";
import { expireDueSessions } from "./transitions";

/** The most sessions one batch (one transaction, one locking statement) expires. */
export const EXPIRY_BATCH_SIZE = 200;

/** The name the sweeper's connection shows in pg_stat_activity. */
export const APPLICATION_NAME = "idv-expiry-sweep";

export interface TSweepOptions {
  /** sessions per batch (default EXPIRY_BATCH_SIZE) */
  batchSize?: number;
  /** asked before each batch: true ends the sweep */
  stopped?: () => boolean;
}

/**
 * Expires every open session past its expiresAt, batch after batch (see the module rules), on
 * `db`'s pool (the client of kysely() or createDb(), not a transaction).
 */
export async function sweepExpiredSessions(
  db: Db,
  { batchSize = EXPIRY_BATCH_SIZE, stopped }: TSweepOptions = {},
): Promise<{ expired: number; batches: number }> {
  let expired = 0;
  let batches = 0;
  while (!stopped?.()) {
    const batch = await inWakingTransaction(db, (tx) => expireDueSessions(tx, new Date(), batchSize));
    batches++;
    expired += batch.expired;
    // a full batch: more may be due (one that expired nothing would only come back the same)
    if (batch.claimed < batchSize || batch.expired === 0) break;
  }
  return { expired, batches };
}

export interface TExpirySweeperOptions {
  /** the database; the sweeper has one connection of its own */
  connectionString: string;
  /** from the end of one sweep to the start of the next */
  intervalMs: number;
  batchSize?: number;
}

/** The sweeps of one process, on a timer (see the module rules). */
export class ExpirySweeper {
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();
  private readonly db: Db;

  constructor(private readonly options: TExpirySweeperOptions) {
    this.db = createDb(withApplicationName(options.connectionString, APPLICATION_NAME), 1);
  }

  /** Sweeps at once, then every interval. */
  start(): void {
    this.next(0);
  }

  /** No sweep after this; waits for the batch under way, then closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.sweeping;
    await this.db.destroy();
  }

  private next(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sweeping = this.sweep();
    }, ms);
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    try {
      const { expired } = await sweepExpiredSessions(this.db, {
        ...(this.options.batchSize ? { batchSize: this.options.batchSize } : {}),
        stopped: () => this.stopped,
      });
      if (expired > 0) logger.debug({ expired }, "verification sessions expired");
    } catch (err) {
      logger.warn({ err }, "expiry sweep failed; the next sweep tries again");
    }
    this.next(this.options.intervalMs);
  }
}
