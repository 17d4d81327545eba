/**
 * What every database command of the `idv` CLI shares: opening the database and printing.
 * Rules: the database is the one the service uses (DATABASE_URL, else the embedded server
 * under `.data/`); the embedded database is brought up to date first, as `npm run dev` does,
 * while a configured server is migrated only by `idv db migrate`; the connection pool is closed
 * and a server started by this process is stopped before the command returns, so the process
 * exits at once. With --json, stdout carries exactly one JSON object.
 */
import { config } from "../config";
import { ensureDatabase, migrateDatabase, type DatabaseHandle } from "../db/database";
import { closeDatabase, kysely, type Db } from "../db/client";

export async function withDatabase<T>(
  work: (db: Db, handle: DatabaseHandle) => Promise<T>,
  { migrateEmbedded = true }: { migrateEmbedded?: boolean } = {},
): Promise<T> {
  const handle = await ensureDatabase();
  try {
    if (handle.embedded && migrateEmbedded) await migrateDatabase(handle.url, { quiet: true });
    const db = kysely();
    try {
      return await work(db, handle);
    } finally {
      await closeDatabase();
    }
  } finally {
    await handle.stop();
  }
}

/** Prints a command's result: the object itself with --json, else the human lines. */
export function printResult(json: boolean, data: object, human: string[]): void {
  process.stdout.write(json ? `${JSON.stringify(data)}\n` : `${human.join("\n")}\n`);
}

/** Where the database is, for humans; never the password of the URL. */
export function describeDatabase(handle: DatabaseHandle): string {
  if (handle.embedded) return `embedded PostgreSQL (.data/${config().embeddedPgName})`;
  try {
    const url = new URL(handle.url);
    return `${url.hostname}:${url.port || "5432"}${url.pathname} (DATABASE_URL)`;
  } catch {
    return "DATABASE_URL";
  }
}
