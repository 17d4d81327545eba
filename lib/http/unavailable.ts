/**
 * "The database is unavailable" — a restart, a failover, a refused or dropped connection — as
 * opposed to a bug: the pipeline answers these with 503 SERVICE_UNAVAILABLE and Retry-After, so
 * clients retry and a PostgreSQL restart under load fails cleanly and recovers by itself.
 * Recognised wherever they surface: Prisma's connection codes and initialization error, the pg
 * driver adapter's error kinds, PostgreSQL's shutdown and connection SQLSTATEs, socket errors,
 * and pg's own connection messages (which carry no code).
 */

// P1001 can't reach, P1002 timed out reaching, P1008 socket timeout, P1017 server closed the
// connection, P2024 no connection from the pool in time, P2037 too many connections
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);

// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, class 08 connection
// exceptions, 53300 too_many_connections
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006", "53300"]);

const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

// @prisma/adapter-pg's mapped error kinds
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);

// the last: a prepared statement whose result columns a migration changed (lib/db/kysely.ts drops
// that connection, so a retry succeeds)
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Can't reach database server|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error|Connection is closed|Server has closed the connection|cached plan must not change result type/i;

function fieldOf(value: object, name: string): unknown {
  return (value as Record<string, unknown>)[name];
}

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const e = queue.shift();
    if (typeof e !== "object" || e === null || seen.has(e) || seen.size > 10) continue;
    seen.add(e);
    if (fieldOf(e, "name") === "PrismaClientInitializationError") return true;
    const code = fieldOf(e, "code");
    if (typeof code === "string" && (PRISMA_CODES.has(code) || SQLSTATES.has(code) || SOCKET_CODES.has(code)))
      return true;
    const kind = fieldOf(e, "kind");
    if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
    const originalCode = fieldOf(e, "originalCode");
    if (typeof originalCode === "string" && SQLSTATES.has(originalCode)) return true;
    const message = fieldOf(e, "message");
    if (typeof message === "string" && MESSAGES.test(message)) return true;
    // the chain: Error.cause, Prisma's meta (driver adapter errors), AggregateError.errors
    queue.push(fieldOf(e, "cause"), fieldOf(e, "meta"));
    const meta = fieldOf(e, "meta");
    if (typeof meta === "object" && meta !== null) queue.push(fieldOf(meta, "driverAdapterError"));
    const errors = fieldOf(e, "errors");
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 5));
  }
  return false;
}
