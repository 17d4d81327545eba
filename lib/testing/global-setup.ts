/**
 * Integration tests run against a real PostgreSQL: TEST_DATABASE_URL when given (a server the
 * tests may drop and create databases on), else the embedded server under `.data/test-pg`.
 * Each run gets a freshly created database with every migration applied, and one SMTP server
 * (lib/mail/catcher.ts on 127.0.0.1) that every file's SMTP_URL names: whichever file's job worker
 * sends a mail, it lands there, stored under a directory of this run that lib/testing/mail.ts reads.
 */
import type { TestProject } from "vitest/node";
import { createDatabaseIfMissing, migrateDatabase } from "../db/database";
import { startEmbeddedPostgres } from "../db/embedded";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startMailCatcher } from "../mail/catcher";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    smtpUrl: string;
    mailDir: string;
  }
}

async function recreate(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await client.end();
  await createDatabaseIfMissing(adminUrl, database);
}

export default async function setup(project: TestProject) {
  const database = `idv_test_${process.pid}`;
  let adminUrl: string;
  let stop = async () => undefined as void;
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    const server = await startEmbeddedPostgres("test-pg", 54339, { durable: false });
    adminUrl = server.url("postgres");
    stop = server.stop;
  }
  await recreate(adminUrl, database);
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  const url = u.toString();
  await migrateDatabase(url, { quiet: true });
  project.provide("databaseUrl", url);
  process.env.DATABASE_URL = url;
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "idv-test-mail-"));
  const catcher = await startMailCatcher({ dir: mailDir, keep: 100_000 });
  project.provide("smtpUrl", catcher.url);
  project.provide("mailDir", mailDir);

  return async () => {
    await catcher.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    // another test run may be using the same embedded server: the last one out stops it
    const others = await client.query("SELECT 1 FROM pg_database WHERE datname LIKE 'idv_test_%'");
    await client.end();
    if (others.rowCount === 0) await stop();
  };
}
