/**
 * A PostgreSQL connection of its own (not from the pool) that LISTENs on one channel and keeps
 * listening: the one mechanism behind the cache invalidation listener (lib/cache/listener.ts)
 * and the webhook dispatcher's wake-ups (lib/webhooks/dispatch/dispatcher.ts).
 * Rules:
 * - `onReady` runs each time LISTEN is acknowledged (the first time and after every reconnect):
 *   what happened while nobody listened went unheard, so the user catches up there (caches drop
 *   everything, the dispatcher claims);
 * - any loss (an error, the connection ending, a failed heartbeat: a half-open TCP connection
 *   says nothing) calls `onLost` once and connects again with back-off (reconnectMinMs doubling up
 *   to reconnectMaxMs);
 * - the connection never keeps the process alive (its socket and timers are unref'ed).
 */
import net from "node:net";
import pg from "pg";

export interface TListenOptions {
  connectionString: string;
  channel: string;
  /** application_name of the connection (tests find its backend by it) */
  applicationName: string;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** a `SELECT 1` this often proves the connection alive */
  heartbeatMs?: number;
  onReady(): void;
  onLost(err: unknown, wasReady: boolean): void;
  onNotification(payload: string | undefined): void;
}

export class ListenConnection {
  private client: pg.Client | undefined;
  private isReady = false;
  private started = false;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: TListenOptions) {}

  /** LISTEN is in place. */
  get ready(): boolean {
    return this.isReady;
  }

  /** Connects (once; later calls do nothing). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.drop();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { channel } = this.options;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
    });
    this.client = client;
    client.on("error", (err) => this.lose(client, err));
    client.on("end", () => this.lose(client, undefined));
    client.on("notification", (message) => {
      if (client === this.client && message.channel === channel) this.options.onNotification(message.payload);
    });
    try {
      await client.connect();
      if (client.connection.stream instanceof net.Socket) client.connection.stream.unref();
      await client.query(`LISTEN ${channel}`);
    } catch (err) {
      this.lose(client, err);
      return;
    }
    if (client !== this.client || this.closed) return;
    this.attempt = 0;
    this.isReady = true;
    this.heartbeatTimer = setInterval(() => {
      client.query("SELECT 1").catch((err: unknown) => this.lose(client, err));
    }, this.options.heartbeatMs ?? 15_000);
    this.heartbeatTimer.unref();
    this.options.onReady();
  }

  /** The connection `client` is gone or in doubt: tell the user, connect again later. */
  private lose(client: pg.Client, err: unknown): void {
    if (client !== this.client) return;
    const wasReady = this.isReady;
    this.drop();
    this.options.onLost(err, wasReady);
    if (this.closed) return;
    const min = this.options.reconnectMinMs ?? 200;
    const wait = Math.min(this.options.reconnectMaxMs ?? 5_000, min * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 16);
    this.reconnectTimer = setTimeout(() => void this.connect(), wait);
    this.reconnectTimer.unref();
  }

  private drop(): void {
    this.isReady = false;
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
