/**
 * The migrations this build ships (prisma/migrations in the project directory, which the service
 * runs from and `idv serve` migrates from): read once, the first time readiness asks.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../config/paths";

let shipped: readonly string[] | undefined;

/** Names of the migration folders of prisma/migrations (each holds a migration.sql). */
export function shippedMigrationNames(): readonly string[] {
  shipped ??= readMigrationNames(path.join(projectRoot, "prisma", "migrations"));
  return shipped;
}

export function readMigrationNames(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}
