/**
 * Counts the database round trips of a piece of code: every statement any `pg` client of the
 * process sends while `fn` runs (Prisma's adapter, the data layer and LISTEN connections all go
 * through `pg.Client#query`). Background work that is not `fn`'s is left out: the request log's
 * batch insert (written up to a second later, lib/request-log/writer.ts) and the LISTEN
 * connection's heartbeat.
 */
import pg from "pg";
import { vi } from "vitest";

const BACKGROUND = new Set(["request_log_insert"]);

function nameOf(query: unknown): string {
  if (typeof query === "string") return query.trim().split(/\s+/).slice(0, 2).join(" ");
  if (typeof query === "object" && query !== null) {
    const name: unknown = Reflect.get(query, "name");
    if (typeof name === "string") return name;
    return nameOf(Reflect.get(query, "text"));
  }
  return String(query);
}

/**
 * `fn`'s result and its statements in the order sent: a named prepared statement by its name,
 * any other by its first two words ("SELECT 1", "BEGIN").
 */
export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const send = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, "query");
  spy.mockImplementation(function (this: pg.Client, ...args: Parameters<pg.Client["query"]>) {
    const name = nameOf(args[0]);
    if (!BACKGROUND.has(name) && name !== "SELECT 1" && !name.startsWith("LISTEN")) statements.push(name);
    return Reflect.apply(send, this, args);
  });
  try {
    return { result: await fn(), statements };
  } finally {
    spy.mockRestore();
  }
}
