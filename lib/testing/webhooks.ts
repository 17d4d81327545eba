/**
 * Webhook delivery tests: a database of their own, apps with a configured webhook, and
 * verification rows to emit events for.
 *
 * Why a database of their own: every integration test file that starts the job worker shares the
 * run's database, and the webhook dispatcher of another file would claim this file's deliveries
 * and send them with its own process settings (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset refuses the
 * loopback receivers; another retry schedule and timeout), making these tests flaky. A fresh
 * database costs about a second of migrations.
 */
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createDatabaseIfMissing, migrateDatabase } from "../db/database";
import { closeDatabase, kysely } from "../db/client";
import type { Verification } from "../db/rows";
import { randomToken } from "../ids";
import type { TEventType } from "../webhooks/event-types";
import { emitVerificationEvent } from "../webhooks/events";
import { makeApp, makeWorkspace } from "./factories";
import { startJobWorkerForTests } from "./jobs";
import { bearer, call } from "./router";
import { inTransaction } from "../db/kysely";

// the process's handle (lib/db/client.ts keeps it on globalThis)
const globalForDb = globalThis as unknown as { idvDb?: unknown };

/**
 * Points DATABASE_URL at a new, migrated database for this test file (dropped afterwards).
 * Call it before startJobWorkerForTests() and before anything touches the database.
 */
export function isolateTestDatabase(): void {
  let adminUrl: string | undefined;
  let database: string | undefined;
  beforeAll(async () => {
    if (globalForDb.idvDb) throw new Error("isolateTestDatabase() must run before the first database access");
    const shared = new URL(process.env.DATABASE_URL!);
    database = `${shared.pathname.slice(1)}_wh_${randomToken(8).toLowerCase()}`;
    const admin = new URL(shared);
    admin.pathname = "/postgres";
    adminUrl = admin.toString();
    await createDatabaseIfMissing(adminUrl, database);
    const own = new URL(shared);
    own.pathname = `/${database}`;
    await migrateDatabase(own.toString(), { quiet: true });
    process.env.DATABASE_URL = own.toString();
  }, 60_000);
  afterAll(async () => {
    await closeDatabase();
    if (!adminUrl || !database) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await client.end();
  });
}

/**
 * What every file that delivers webhooks for real sets up first: deliveries to loopback receivers
 * allowed, a retry schedule of fractions of a second, a database of the file's own
 * (isolateTestDatabase) and the job worker. Call it at the top of the file.
 */
export function setUpWebhookDeliveryTests(): void {
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
  process.env.WEBHOOK_RETRY_SCHEDULE = "0.2,0.4,0.6";
  isolateTestDatabase();
  startJobWorkerForTests();
}

export interface TWebhookAppOptions {
  url: string;
  events?: TEventType[];
  enabled?: boolean;
  /** rotate the secret once, which turns signing on */
  signed?: boolean;
  env?: "sandbox" | "production";
}

/** A workspace and an app whose webhook is configured through the real endpoints. */
export async function makeWebhookApp(options: TWebhookAppOptions) {
  const env = options.env ?? "sandbox";
  const ws = await makeWorkspace();
  const key = ws.keys[env];
  const app = await makeApp(key, env);
  const base = `/api/${env}/v1/apps/${app.clientId}`;
  const patched = await call("PATCH", `${base}/webhook-config`, {
    headers: bearer(key),
    body: {
      url: options.url,
      enabled: options.enabled ?? true,
      events: options.events ?? ["verification.created", "verification.completed"],
    },
  });
  if (patched.status !== 200) throw new Error(`configuring the webhook failed: ${patched.text}`);
  let secret: string | undefined;
  if (options.signed) {
    const rotated = await call("POST", `${base}/webhook-config/rotate-secret`, { headers: bearer(key) });
    if (rotated.status !== 200) throw new Error(`rotating the secret failed: ${rotated.text}`);
    secret = rotated.body.secret as string;
  }
  return { ws, key, app, env, base, secret };
}

/** A verification row written directly (the session lifecycle is not needed to emit events). */
export async function makeVerificationRow(
  clientId: string,
  status = "awaiting_user_action",
): Promise<Verification> {
  const app = await kysely()
    .selectFrom("apps")
    .selectAll()
    .where("id", "=", clientId)
    .executeTakeFirstOrThrow();
  return kysely()
    .insertInto("verifications")
    .values({
      id: `ver_${randomToken(26)}`,
      appId: app.id,
      workspaceId: app.workspaceId,
      environment: app.environment,
      providerId: "passport",
      workflowId: app.defaultWorkflowId ?? "wf_none",
      verificationNodeId: "verify",
      flowType: "redirect",
      channel: "oidc",
      status,
      countryCode: "DE",
      expiresAt: new Date(Date.now() + 15 * 60_000),
      updatedAt: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Emits events the way the verification service does: each in its own transaction. */
export async function emitEvents(verification: Verification, types: TEventType[]) {
  const payloads = [];
  for (const type of types)
    payloads.push(await inTransaction(kysely(), (tx) => emitVerificationEvent(tx, verification, type)));
  return payloads;
}
