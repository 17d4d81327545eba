/**
 * `idv db migrate`: applies pending migrations to the service's database (DATABASE_URL, else the
 * embedded server) and reports which ones it applied. Safe to run on every deploy.
 */
import pg from "pg";
import { z } from "zod";
import { ensureDatabase, migrateDatabase } from "../db/database";
import { expectSubcommand, parseCommand } from "./args";
import { describeDatabase, printResult } from "./runtime";
import { ZJsonFlag } from "./schemas";

const ZMigrateFlags = z.object({ json: ZJsonFlag });

/** Names of the migrations recorded as applied (none when the database is still empty). */
async function appliedMigrations(url: string): Promise<string[]> {
  const schema = new URL(url).searchParams.get("schema") ?? "public";
  const table = `"${schema.replaceAll('"', '""')}"._prisma_migrations`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [
      table,
    ]);
    if (!found.rows[0]?.present) return [];
    const rows = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM ${table} WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    return rows.rows.map((r) => r.migration_name);
  } finally {
    await client.end();
  }
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  expectSubcommand("db", sub, "migrate");
  const flags = parseCommand(rest, ZMigrateFlags, ["json"]);
  const handle = await ensureDatabase();
  try {
    const before = new Set(await appliedMigrations(handle.url));
    await migrateDatabase(handle.url, { quiet: true });
    const after = await appliedMigrations(handle.url);
    const applied = after.filter((name) => !before.has(name));
    const where = describeDatabase(handle);
    printResult(flags.json, { database: where, applied, total: after.length }, [
      `Database: ${where}`,
      applied.length > 0
        ? `Applied ${applied.length} migration${applied.length === 1 ? "" : "s"}: ${applied.join(", ")}`
        : "No pending migrations; the schema is up to date.",
      `${after.length} migration${after.length === 1 ? "" : "s"} applied in total.`,
    ]);
    return 0;
  } finally {
    await handle.stop();
  }
}
