/**
 * The invalidation listener of a process: one PostgreSQL connection of its own that LISTENs on
 * CACHE_CHANNEL (lib/db/listen.ts) and tells the derived caches (derived-cache.ts) of its process
 * what changed.
 * Rules:
 * - a writer sends its invalidation with pg_notify IN THE TRANSACTION of its change
 *   (publish.ts): PostgreSQL delivers it on commit, never on rollback, to every listener of the
 *   database, so every instance on it hears of every committed change;
 * - a cache serves and stores only while this listener is ready (LISTEN acknowledged): a change
 *   made while it was not listening would go unheard;
 * - any doubt drops everything: on a lost connection (error, end, a failed heartbeat) every cache
 *   is cleared at once, again when LISTEN is back (connection attempts continue with back-off),
 *   and on a notification it cannot read;
 * - the connection never keeps the process alive (its socket and timers are unref'ed).
 */
import { config } from "../config";
import { ListenConnection, type TListenOptions } from "../db/listen";
import { randomToken } from "../ids";
import { logger } from "../log";

export const CACHE_CHANNEL = "idv_cache";

/** What a cache registers with its listener. */
export interface TCacheSubscriber {
  readonly topic: string;
  /** a committed change of `key` (undefined: anything) of the cache's topic */
  invalidate(key: string | undefined): void;
  /** drop everything */
  clear(): void;
}

export type TListenerEvent = "ready" | "lost" | "notification";

/** A notification as read: its topic and key, or undefined for a payload that is not ours. */
export type TInvalidation = { topic: string; key?: string } | undefined;

export type TListenerWatcher = (event: TListenerEvent, change?: TInvalidation) => void;

export type TListenerOptions = Pick<
  TListenOptions,
  "connectionString" | "reconnectMinMs" | "reconnectMaxMs" | "heartbeatMs"
>;

/** The payload of one invalidation: `{"t":topic,"k":key}` (k absent: the whole topic). */
export function encodeInvalidation(topic: string, key?: string): string {
  return JSON.stringify(key === undefined ? { t: topic } : { t: topic, k: key });
}

/** The topic and key of a payload, or undefined when it is not one of ours. */
export function decodeInvalidation(payload: string | undefined): TInvalidation {
  if (!payload) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || !("t" in value) || typeof value.t !== "string")
    return undefined;
  if (!("k" in value)) return { topic: value.t };
  return typeof value.k === "string" ? { topic: value.t, key: value.k } : undefined;
}

export class InvalidationListener {
  /** application_name of the connection, unique per listener (tests find its backend by it) */
  readonly name = `idv-cache-${randomToken(8).toLowerCase()}`;
  private readonly subscribers = new Set<TCacheSubscriber>();
  private readonly watchers = new Set<TListenerWatcher>();
  private readonly connection: ListenConnection;

  constructor(options: TListenerOptions) {
    this.connection = new ListenConnection({
      ...options,
      channel: CACHE_CHANNEL,
      applicationName: this.name,
      onReady: () => {
        // whatever was cached before LISTEN was in place may have missed a change
        this.clearAll();
        this.emit("ready");
      },
      onLost: (err, wasReady) => {
        this.clearAll();
        if (wasReady) logger.warn({ err }, "cache invalidation listener lost; caches dropped");
        this.emit("lost");
      },
      onNotification: (payload) => {
        const change = decodeInvalidation(payload);
        // a payload we cannot read may have been about anything
        if (change) this.deliver(change.topic, change.key);
        else this.clearAll();
        this.emit("notification", change);
      },
    });
  }

  /** LISTEN is in place: caches may serve and store. */
  get ready(): boolean {
    return this.connection.ready;
  }

  /** Connects (once; later calls do nothing). Caches call it on first use. */
  start(): void {
    this.connection.start();
  }

  subscribe(subscriber: TCacheSubscriber): void {
    this.subscribers.add(subscriber);
  }

  /** Calls `watcher` on every state change and notification (tests wait on these). */
  watch(watcher: TListenerWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /**
   * Applies an invalidation to this process's caches (the listener does it for every
   * notification; publish.ts also does it at once for the writer's own process).
   */
  deliver(topic: string, key: string | undefined): void {
    for (const subscriber of this.subscribers) if (subscriber.topic === topic) subscriber.invalidate(key);
  }

  /** Drops everything every cache holds. */
  clearAll(): void {
    for (const subscriber of this.subscribers) subscriber.clear();
  }

  async close(): Promise<void> {
    this.connection.close();
    this.clearAll();
  }

  private emit(event: TListenerEvent, change?: TInvalidation): void {
    for (const watcher of this.watchers) watcher(event, change);
  }
}

// on globalThis: route modules bundled apart share the process, and so its one listener
const holder = globalThis as unknown as { idvCacheListener?: InvalidationListener | null };

/**
 * This process's listener on DATABASE_URL (created on first use, not yet connected), or
 * undefined without a database (then every cache reads through).
 */
export function processListener(): InvalidationListener | undefined {
  if (holder.idvCacheListener === undefined) {
    const url = config().databaseUrl;
    holder.idvCacheListener = url ? new InvalidationListener({ connectionString: url }) : null;
  }
  return holder.idvCacheListener ?? undefined;
}

/** The process listener if one was created (publishers never create one). */
export function existingProcessListener(): InvalidationListener | undefined {
  return holder.idvCacheListener ?? undefined;
}
