/**
 * The invalidation listener of a process: one PostgreSQL connection of its own (not from the
 * pool) that LISTENs on CACHE_CHANNEL and tells the derived caches (derived-cache.ts) of its
 * process what changed.
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
import net from "node:net";
import pg from "pg";
import { config } from "../config";
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

export interface TListenerOptions {
  connectionString: string;
  /** first wait before connecting again after a loss; doubles up to reconnectMaxMs */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** a `SELECT 1` this often proves the connection alive (a half-open TCP connection says nothing) */
  heartbeatMs?: number;
}

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
  private client: pg.Client | undefined;
  private isReady = false;
  private started = false;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private readonly reconnectMinMs: number;
  private readonly reconnectMaxMs: number;
  private readonly heartbeatMs: number;

  constructor(private readonly options: TListenerOptions) {
    this.reconnectMinMs = options.reconnectMinMs ?? 200;
    this.reconnectMaxMs = options.reconnectMaxMs ?? 5_000;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
  }

  /** LISTEN is in place: caches may serve and store. */
  get ready(): boolean {
    return this.isReady;
  }

  /** Connects (once; later calls do nothing). Caches call it on first use. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
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
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.drop();
  }

  private emit(event: TListenerEvent, change?: TInvalidation): void {
    for (const watcher of this.watchers) watcher(event, change);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: this.name,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
    });
    this.client = client;
    client.on("error", (err) => this.lose(client, err));
    client.on("end", () => this.lose(client, undefined));
    client.on("notification", (message) => {
      if (client !== this.client || message.channel !== CACHE_CHANNEL) return;
      const change = decodeInvalidation(message.payload);
      // a payload we cannot read may have been about anything
      if (change) this.deliver(change.topic, change.key);
      else this.clearAll();
      this.emit("notification", change);
    });
    try {
      await client.connect();
      if (client.connection.stream instanceof net.Socket) client.connection.stream.unref();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (err) {
      this.lose(client, err);
      return;
    }
    if (client !== this.client || this.closed) return;
    // whatever was cached before LISTEN was in place may have missed a change
    this.clearAll();
    this.attempt = 0;
    this.isReady = true;
    this.heartbeatTimer = setInterval(() => {
      client.query("SELECT 1").catch((err: unknown) => this.lose(client, err));
    }, this.heartbeatMs);
    this.heartbeatTimer.unref();
    this.emit("ready");
  }

  /** The connection `client` is gone or in doubt: drop everything, connect again later. */
  private lose(client: pg.Client, err: unknown): void {
    if (client !== this.client) return;
    const wasReady = this.isReady;
    this.drop();
    if (!this.closed && wasReady) logger.warn({ err }, "cache invalidation listener lost; caches dropped");
    this.emit("lost");
    if (this.closed) return;
    const wait = Math.min(this.reconnectMaxMs, this.reconnectMinMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 16);
    this.reconnectTimer = setTimeout(() => void this.connect(), wait);
    this.reconnectTimer.unref();
  }

  private drop(): void {
    this.isReady = false;
    this.clearAll();
    clearInterval(this.heartbeatTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners("notification");
      // an error after this point (the socket closing) must not be unhandled
      client.on("error", () => undefined);
      client.end().catch(() => undefined);
    }
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
