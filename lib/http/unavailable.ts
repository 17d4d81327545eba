/**
 * "The database is unavailable" — a restart, a failover, a refused or dropped connection — as
 * opposed to a bug: the pipeline answers these with 503 SERVICE_UNAVAILABLE and Retry-After, so
 * clients retry and a PostgreSQL restart under load fails cleanly and recovers by itself.
 * Recognised wherever they surface: PostgreSQL's shutdown and connection SQLSTATEs, socket
 * errors, and pg's own connection messages (which carry no code), also as the cause of another.
 */

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

// the last: a prepared statement whose result columns a migration changed (lib/db/kysely.ts drops
// that connection, so a retry succeeds)
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error|Connection is closed|cached plan must not change result type/i;

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
    const code = fieldOf(e, "code");
    if (typeof code === "string" && (SQLSTATES.has(code) || SOCKET_CODES.has(code))) return true;
    const message = fieldOf(e, "message");
    if (typeof message === "string" && MESSAGES.test(message)) return true;
    // the chain: Error.cause, AggregateError.errors
    queue.push(fieldOf(e, "cause"));
    const errors = fieldOf(e, "errors");
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 5));
  }
  return false;
}
