/**
 * Resolves the database the process works on and applies migrations.
 * DATABASE_URL set → that server; unset → the embedded server under `.data/`.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import pg from "pg";
import { config, setVariable } from "../config";
import { projectRoot } from "../config/paths";
import { installJobQueue } from "../jobs/worker";
import { startEmbeddedPostgres } from "./embedded";

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop: () => Promise<void>;
}

export async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** Makes DATABASE_URL point at a running server (starting the embedded one when unset). */
export async function ensureDatabase(): Promise<DatabaseHandle> {
  const { databaseUrl, embeddedPgName, embeddedPgPort } = config();
  if (databaseUrl) return { url: databaseUrl, embedded: false, stop: async () => undefined };
  // IDV_EMBEDDED_PG_NAME picks the data directory under .data/ (the end-to-end tests use their own)
  const server = await startEmbeddedPostgres(embeddedPgName, embeddedPgPort);
  await createDatabaseIfMissing(server.url("postgres"), "idv");
  const url = server.url("idv");
  setVariable("DATABASE_URL", url);
  return { url, embedded: true, stop: server.stop };
}

/**
 * Applies pending migrations (`prisma migrate deploy` on the WebAssembly schema engine) and
 * installs or upgrades the job queue's own schema.
 */
export async function migrateDatabase(
  url: string,
  { quiet = false }: { quiet?: boolean } = {},
): Promise<void> {
  const require = createRequire(import.meta.url);
  const prismaCli = require.resolve("prisma/build/index.js");
  const preload = path.join(projectRoot, "scripts", "prisma-cli-preload.cjs");
  const result = spawnSync(process.execPath, ["--require", preload, prismaCli, "migrate", "deploy"], {
    cwd: projectRoot,
    // eslint-disable-next-line no-restricted-properties -- the child process inherits the environment
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`database migration failed:\n${result.stdout}\n${result.stderr}`);
  }
  await installJobQueue(url);
  if (!quiet)
    process.stdout.write(
      result.stdout
        .split("\n")
        .filter((l) => /migration|applied|No pending/i.test(l))
        .join("\n") + "\n",
    );
}
