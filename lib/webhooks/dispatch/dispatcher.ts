/**
 * The webhook dispatcher of one process (started with the job worker, lib/jobs/worker.ts): it
 * claims due deliveries from the queue in batches (dispatch/queue.ts), sends one attempt of each
 * at once (attempt.ts) and records their outcomes in batches.
 * Rules:
 * - it claims when woken: by NOTIFY idv_webhook_queue (a delivery was queued by any instance, sent
 *   at its commit), when the next queued delivery falls due (retries: each claim says when), and
 *   every poll interval (a notification lost while its connection was down); and each statement
 *   that records outcomes claims again in the same round trip, for the slots they free (the next
 *   event of a session may go now);
 * - one claim statement and one record statement in flight at a time, on two connections of its
 *   own (not the request pool, DATABASE_POOL_SIZE: under load, requests queue for that one and
 *   deliveries would wait behind them), plus its LISTEN connection; outcomes are batched while a
 *   record statement is in flight;
 * - at most WEBHOOK_CONCURRENCY deliveries claimed and not yet recorded; a claim takes no more
 *   than there is room for;
 * - an outcome that cannot be recorded (database down) is retried while its lease lasts; after
 *   that the delivery is re-queued and the receiver may see it twice (at-least-once);
 * - a lease lasts the attempt's timeout plus a margin (queue.ts `leaseSeconds`), and every
 *   RECOVER_MS each dispatcher re-queues the deliveries whose lease expired (sweep.ts): a delivery
 *   cut off by a crash is sent again within seconds of its lease's end, by any instance;
 * - stop() claims nothing more and waits for the attempts in flight to be recorded (bounded).
 */
import { createDb, withApplicationName, type Db } from "../../db/client";
import { ListenConnection } from "../../db/listen";
import { logger } from "../../log";
import { attemptClaimed } from "./attempt";
import { sweepWebhookDeliveries } from "./sweep";
import {
  claimDueDeliveries,
  QUEUE_CHANNEL,
  recordAndClaim,
  type TAttemptRecord,
  type TClaimedBatch,
  type TClaimedDelivery,
} from "./queue";
import { endLeases } from "../store/queue";

/** The name its connections show in pg_stat_activity. */
export const APPLICATION_NAME = "idv-webhook-dispatcher";

/** The most deliveries one claim or one record statement handles. */
export const MAX_BATCH = 100;
const RETRY_MS = 1000;
/** How often a dispatcher re-queues the deliveries whose lease expired (a crashed sender's). */
export const RECOVER_MS = 5000;
/** An outcome is still recorded while its lease has at least this long to run. */
const LEASE_MARGIN_MS = 1000;

export interface TDispatcherOptions {
  /** the database (the dispatcher has connections of its own: see the rules) */
  connectionString: string;
  /** deliveries claimed and not yet recorded, at most */
  concurrency: number;
  pollIntervalMs: number;
  /** how often expired leases are re-queued (default RECOVER_MS) */
  recoverIntervalMs?: number;
}

export class WebhookDispatcher {
  private stopped = false;
  private inFlight = 0;
  // set and cleared in the same synchronous step as the loop's last check, so that a wake-up
  // is never lost between the two
  private claiming = false;
  private claimAgain = false;
  private lastClaim: Promise<void> = Promise.resolve();
  private outcomes: TAttemptRecord[] = [];
  private recording = false;
  private readonly listener: ListenConnection;
  private readonly timers = new Set<NodeJS.Timeout>();
  private dueAt = Number.POSITIVE_INFINITY;
  private dueTimer: NodeJS.Timeout | undefined;
  private idle: (() => void) | undefined;
  private recovering = false;
  /** the leases of the deliveries claimed and not yet recorded: released by stop() at its deadline */
  private readonly held = new Map<string, Date>();

  /** its own two connections: claims and records never wait behind requests for the shared pool */
  private readonly db: Db;

  constructor(private readonly options: TDispatcherOptions) {
    this.db = createDb(withApplicationName(options.connectionString, APPLICATION_NAME), 2);
    this.listener = new ListenConnection({
      connectionString: options.connectionString,
      channel: QUEUE_CHANNEL,
      applicationName: APPLICATION_NAME,
      reconnectMinMs: RETRY_MS,
      reconnectMaxMs: RETRY_MS,
      // anything queued while nobody listened
      onReady: () => this.wake(),
      onLost: (err) => {
        if (!this.stopped) logger.warn({ err }, "webhook dispatcher: LISTEN connection lost, reconnecting");
      },
      onNotification: () => this.wake(),
    });
  }

  start(): void {
    this.listener.start();
    const poll = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.timers.add(poll);
    const recovery = setInterval(() => void this.recover(), this.options.recoverIntervalMs ?? RECOVER_MS);
    this.timers.add(recovery);
    void this.recover();
    this.wake();
  }

  /**
   * Puts the deliveries whose lease expired — their dispatcher died between sending and
   * recording — back on the queue, and claims them (sweep.ts's re-queue, run here every few
   * seconds rather than waiting for the minute's `webhook_sweep` job).
   */
  private async recover(): Promise<void> {
    if (this.stopped || this.recovering) return;
    this.recovering = true;
    try {
      const requeued = await sweepWebhookDeliveries(this.db);
      if (requeued.length > 0) this.wake();
    } catch (err) {
      if (!this.stopped) logger.warn({ err }, "webhook dispatcher: re-queueing expired leases failed");
    } finally {
      this.recovering = false;
    }
  }

  /** Claims now, or once the claim under way has returned. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = true;
    this.lastClaim = this.claim();
  }

  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.listener.close();
    await this.lastClaim;
    if (this.inFlight > 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    await this.releaseHeld();
    await this.db.destroy();
  }

  /**
   * Attempts still running at stop()'s deadline will not be recorded by this process: their
   * leases end now, so another instance's dispatcher sends them again within its recovery
   * interval instead of after the lease (the attempt's timeout and the margin).
   */
  private async releaseHeld(): Promise<void> {
    if (this.held.size === 0) return;
    const held = [...this.held].map(([deliveryId, leaseUntil]) => ({ deliveryId, leaseUntil }));
    this.held.clear();
    try {
      const released = await endLeases(this.db, held, new Date());
      logger.info({ released }, "webhook dispatcher: released the leases of attempts still in flight");
    } catch (err) {
      logger.warn({ err, held: held.length }, "webhook dispatcher: releasing leases failed; they expire");
    }
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private async claim(): Promise<void> {
    try {
      do {
        this.claimAgain = false;
        const room = this.reserve(0);
        // recording outcomes frees room, and claims again
        if (room <= 0) return;
        let claimed: TClaimedBatch;
        try {
          claimed = await claimDueDeliveries(this.db, room);
        } finally {
          this.inFlight -= room;
        }
        this.started(claimed);
        // a full batch: there may be more
        if (claimed.deliveries.length === room) this.claimAgain = true;
      } while (this.claimAgain && !this.stopped);
    } catch (err) {
      logger.warn({ err }, "webhook dispatcher: claiming deliveries failed, retrying");
      this.later(RETRY_MS, () => this.wake());
    } finally {
      this.claiming = false;
    }
  }

  /**
   * Room for a claim, reserved at once (counted in flight until the claim returns), so that the
   * claim of a record statement and a claim of its own never take more than the concurrency;
   * `freed`: the deliveries the same statement records.
   */
  private reserve(freed: number): number {
    if (this.stopped) return 0;
    const room = Math.max(0, Math.min(this.options.concurrency - this.inFlight + freed, MAX_BATCH));
    this.inFlight += room;
    return room;
  }

  /** Sends the claimed deliveries, counted in flight until recorded. */
  private started({ deliveries, nextDueAt }: TClaimedBatch): void {
    this.inFlight += deliveries.length;
    for (const delivery of deliveries) {
      this.held.set(delivery.id, delivery.leaseUntil);
      void this.attempt(delivery);
    }
    if (nextDueAt) this.wakeAt(nextDueAt);
  }

  /** Claims again when `at` comes, unless an earlier wake-up is already set. */
  private wakeAt(at: Date): void {
    const when = at.getTime();
    if (this.stopped || when >= this.dueAt) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueAt = when;
    this.dueTimer = setTimeout(
      () => {
        this.dueTimer = undefined;
        this.dueAt = Number.POSITIVE_INFINITY;
        this.wake();
      },
      Math.max(0, when - Date.now()) + 1,
    );
  }

  private async attempt(delivery: TClaimedDelivery): Promise<void> {
    try {
      const { record } = await attemptClaimed(delivery);
      this.outcomes.push(record);
    } catch (err) {
      // not expected (attempts never throw): the lease runs out and the sweeper re-queues it
      logger.error({ err, deliveryId: delivery.id }, "webhook dispatcher: attempt failed");
      this.held.delete(delivery.id);
      this.done(1);
      return;
    }
    if (!this.recording) {
      this.recording = true;
      void this.record();
    }
  }

  private done(count: number): void {
    this.inFlight -= count;
    if (this.inFlight === 0) this.idle?.();
  }

  private async record(): Promise<void> {
    // the flag is cleared in the same synchronous step as the loop's last check (see `claiming`)
    try {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.splice(0, MAX_BATCH);
        // the slots these outcomes free are claimed again in the same statement
        const room = this.reserve(batch.length);
        try {
          let result: Awaited<ReturnType<typeof recordAndClaim>>;
          try {
            result = await recordAndClaim(this.db, batch, room);
          } finally {
            this.inFlight -= room;
          }
          for (const r of batch) {
            this.held.delete(r.deliveryId);
            if (!result.written.has(r.deliveryId))
              logger.warn({ deliveryId: r.deliveryId }, "webhook delivery lease lost; attempt logged only");
            else if (r.nextAttemptAt) this.wakeAt(r.nextAttemptAt);
          }
          this.started(result.claimed);
          this.done(batch.length);
          // a full batch: there may be more
          if (room > 0 && result.claimed.deliveries.length === room) this.wake();
        } catch (err) {
          // kept while the lease lasts (not after stop(), whose connections are going)
          const keepUntil = Date.now() + LEASE_MARGIN_MS;
          const kept = this.stopped ? [] : batch.filter((r) => r.leaseUntil.getTime() > keepUntil);
          logger.warn(
            { err, kept: kept.length, dropped: batch.length - kept.length },
            "webhook dispatcher: recording attempts failed, retrying while their leases last",
          );
          for (const r of batch) if (!kept.includes(r)) this.held.delete(r.deliveryId);
          this.done(batch.length - kept.length);
          this.outcomes.unshift(...kept);
          if (kept.length > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    } finally {
      this.recording = false;
    }
  }
}
