/**
 * `idv serve [--dev] [--port N]`: the launcher behind `npm run dev` and `npm start`.
 * Resolves the database (embedded when DATABASE_URL is unset), applies migrations, seeds the
 * demo workspace in development, prints where things are, then runs server/production.mjs (Next.js's
 * development server behind it with --dev, else the production build) and stops the embedded
 * database when it exits.
 * Mail: in development without SMTP_URL a local catcher (lib/mail/catcher.ts) receives every mail
 * and the development mailbox page (/dev/mailbox) shows it; in production without SMTP_URL a
 * warning says what works differently (lib/config/startup.ts mailWarning).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { z } from "zod";
import { ensureDatabase, migrateDatabase } from "../db/database";
import { ensureDevMasterKey } from "../crypto/master-key";
import { config, setVariable } from "../config";
import { projectRoot } from "../config/paths";
import { checkConfiguration, mailWarning } from "../config/startup";
import { startMailCatcher, type TMailCatcher } from "../mail/catcher";
import { devMailboxDir } from "../mail/mailbox";
import { seedDemo } from "../seed/demo";
import { parseCommand } from "./args";

const PORT_MESSAGE = "must be a port number (1-65535)";
const ZServeFlags = z.object({
  dev: z.boolean().default(false),
  port: z.coerce
    .number({ error: PORT_MESSAGE })
    .int(PORT_MESSAGE)
    .min(1, PORT_MESSAGE)
    .max(65535, PORT_MESSAGE)
    .optional(),
});

export async function run(args: string[]): Promise<number> {
  const flags = parseCommand(args, ZServeFlags, ["dev"]);
  return serve({ dev: flags.dev, port: flags.port });
}

/**
 * The server process's arguments: server/production.mjs in both modes (production: Next.js's
 * handler for pages, the fast path for /api/… and /oidc/… unless IDV_FAST_PATH=off). Development
 * runs Next.js's development server behind the same listener (`--dev`) rather than `next dev`, so
 * what Next.js cannot take (TRACE: its Request constructor throws, a 500) is refused as in
 * production (405).
 */
export function serverCommand(options: { dev: boolean; port: number; hostname: string }): string[] {
  const server = path.join(projectRoot, "server", "production.mjs");
  const where = ["--port", String(options.port), "--hostname", options.hostname];
  if (options.dev) return [server, "--dev", ...where];
  return [
    // a bounded heap: without it V8 lets the heap grow to hundreds of MB under load before it
    // collects (538 MB resident in the benchmark, 252 MB with 256)
    `--max-old-space-size=${config().maxHeapMb}`,
    server,
    ...where,
    ...(config().fastPath ? [] : ["--no-fast-path"]),
  ];
}

export async function serve(options: { dev: boolean; port?: number }): Promise<number> {
  // --port is the PORT of Next.js and of PUBLIC_URL's default (http://localhost:$PORT)
  if (options.port !== undefined) setVariable("PORT", String(options.port));
  // a bad value of any variable refuses to start here, before the database (ConfigError)
  const { port, hostname, masterKey, databaseUrl } = await checkConfiguration();
  if (options.dev) ensureDevMasterKey();
  else if (!masterKey) {
    if (databaseUrl) {
      console.error(
        "IDV_MASTER_KEY is required in production mode (it encrypts secrets at rest). Set it to a long random value.",
      );
      return 1;
    }
    // a self-contained local run on the embedded database keeps its key beside the data
    ensureDevMasterKey();
  }

  const db = await ensureDatabase();
  await migrateDatabase(db.url, { quiet: true });
  const demo = options.dev ? await seedDemo() : undefined;
  // IDV_UPSTREAM_OIDC / IDV_WALLET_TRUSTED_ISSUERS: imported into connections that do not exist yet
  const { importEnvironmentConnections } = await import("../connections/runtime");
  const connectionWarnings = await importEnvironmentConnections();

  // development without a mail server: catch mail locally, shown on /dev/mailbox
  let catcher: TMailCatcher | undefined;
  if (options.dev && !config().smtpUrl) {
    catcher = await startMailCatcher({ dir: devMailboxDir() });
    setVariable("SMTP_URL", catcher.url);
    setVariable("IDV_DEV_MAILBOX", "1");
  }

  const { publicUrl, embeddedPgName } = config();
  const lines = [
    "",
    `  Identity verification broker (${options.dev ? "development" : "production"})`,
    `  Console:      ${publicUrl}/`,
    `  REST base:    ${publicUrl}/api/sandbox  ·  ${publicUrl}/api/production`,
    `  Database:     ${db.embedded ? `embedded PostgreSQL (.data/${embeddedPgName})` : "DATABASE_URL"}`,
  ];
  if (demo) {
    lines.push(`  Demo sign-in: ${demo.email} / ${demo.password}`);
    if (demo.sandboxKey) lines.push(`  Sandbox key:  ${demo.sandboxKey}`);
    lines.push(
      `  Try:          curl -H "Authorization: Bearer ${demo.sandboxKey ?? "<key>"}" ${publicUrl}/api/sandbox/v1/apps`,
    );
  }
  if (config().devMailbox)
    lines.push(`  Mailbox:      ${publicUrl}/dev/mailbox (mail caught locally, never sent)`);
  console.log(lines.join("\n") + "\n");
  const noMail = options.dev ? undefined : mailWarning(config());
  if (noMail) console.warn(`  Warning: ${noMail}\n`);
  for (const warning of connectionWarnings) console.warn(`  Warning: ${warning}\n`);

  const child = spawn(process.execPath, serverCommand({ dev: options.dev, port, hostname }), {
    cwd: projectRoot,
    stdio: "inherit",
    // the child reads the same environment (PORT, DATABASE_URL, the master key) through lib/config
    env: {
      // eslint-disable-next-line no-restricted-properties -- the child process inherits the environment
      ...process.env,
      NODE_ENV: options.dev ? "development" : "production",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  const code = await new Promise<number>((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 0 : 1))));
  await catcher?.close();
  await db.stop();
  return code;
}
