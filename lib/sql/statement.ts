/**
 * Hand-written statements of the hot write paths (a session's creation with its outbox, a batch
 * of events, the code exchange), run wherever the caller is: on the process's client as a named
 * prepared statement on the shared `pg` pool (lib/db/sql.ts `queryAll`: its errors, 503 when
 * the database is down), or inside the caller's Prisma transaction through `$queryRawUnsafe`
 * (same connection, same transaction, sees its writes and locks).
 * Rules:
 * - statements are lib/db/sql.ts `defineStatement`s (module level, unique name, `$n`
 *   placeholders, columns listed, a parser per row);
 * - one statement is atomic on its own: a statement run outside a transaction that writes
 *   several tables (data-modifying CTEs) commits all of them or none;
 * - their results hold only text, integers, booleans, text arrays and JSON, which both drivers
 *   return alike (no timestamps: those are compared in SQL or selected as text).
 */
import { poolOf, type Tx } from "../db/client";
import { queryAll, type TRow, type TSqlValue, type TStatement } from "../db/sql";

type TWire = string | number | boolean | null;

// Dates as UTC text, as lib/db/sql.ts sends them
function wire(value: unknown): TWire {
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return value;
  throw new TypeError(`not an SQL parameter: ${typeof value}`);
}

function serialize(value: TSqlValue): TWire | TWire[] {
  return Array.isArray(value) ? value.map(wire) : wire(value);
}

/** Every row of `statement` run on `db` (a client or a transaction), parsed. */
export async function runStatement<V extends readonly TSqlValue[], T>(
  db: Tx,
  statement: TStatement<V, T>,
  values: V,
): Promise<T[]> {
  if (poolOf(db)) return queryAll(db, statement, values);
  const rows = await db.$queryRawUnsafe<TRow[]>(statement.text, ...values.map(serialize));
  return rows.map((row) => statement.parse(row));
}
