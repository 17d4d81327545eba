/**
 * The statements of readiness (lib/health/readiness.ts): a ping, and the migrations recorded as
 * applied in Prisma Migrate's own table (not a model of the schema, so named here by hand).
 */
import { sql } from "kysely";
import type { Db } from "../db/kysely";

/** Resolves when the database answers a statement. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}

/** Names of the migrations Prisma Migrate recorded as applied (none before the first). */
export async function appliedMigrationNames(db: Db): Promise<string[]> {
  const { rows } = await sql<{ migrationName: string }>`
    SELECT migration_name FROM _prisma_migrations
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`
    .execute(db)
    .catch((err: unknown) => {
      // no table yet: nothing applied (42P01 undefined_table)
      if (typeof err === "object" && err !== null && "code" in err && err.code === "42P01")
        return { rows: [] };
      throw err;
    });
  return rows.map((row) => row.migrationName);
}
