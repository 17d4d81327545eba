/**
 * `idv serve [--dev] [--port N]`: the launcher behind `npm run dev` and `npm start`.
 * Resolves the database (embedded when DATABASE_URL is unset), applies migrations, seeds the
 * demo workspace in development, prints where things are, then runs Next.js and stops the
 * embedded database when Next.js exits.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { z } from "zod";
import { ensureDatabase, migrateDatabase } from "../db/database";
import { ensureDevMasterKey } from "../crypto/master-key";
import { projectRoot } from "../config/paths";
import { parseHostMap } from "../http/hosts";
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

export async function serve(options: { dev: boolean; port?: number }): Promise<number> {
  const port = options.port ?? Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOSTNAME ?? "127.0.0.1";
  process.env.PUBLIC_URL ??= `http://localhost:${port}`;
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  // a malformed host map would otherwise fail every proxied request: refuse to start instead
  if (process.env.IDV_HOSTS) parseHostMap(process.env.IDV_HOSTS);
  if (options.dev) ensureDevMasterKey();
  else if (!process.env.IDV_MASTER_KEY) {
    if (process.env.DATABASE_URL) {
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

  const lines = [
    "",
    `  Identity verification broker (${options.dev ? "development" : "production"})`,
    `  Console:      ${process.env.PUBLIC_URL}/`,
    `  REST base:    ${process.env.PUBLIC_URL}/api/sandbox  ·  ${process.env.PUBLIC_URL}/api/production`,
    `  Database:     ${db.embedded ? `embedded PostgreSQL (.data/${process.env.IDV_EMBEDDED_PG_NAME ?? "pg"})` : "DATABASE_URL"}`,
  ];
  if (demo) {
    lines.push(`  Demo sign-in: ${demo.email} / ${demo.password}`);
    if (demo.sandboxKey) lines.push(`  Sandbox key:  ${demo.sandboxKey}`);
    lines.push(
      `  Try:          curl -H "Authorization: Bearer ${demo.sandboxKey ?? "<key>"}" ${process.env.PUBLIC_URL}/api/sandbox/v1/apps`,
    );
  }
  console.log(lines.join("\n") + "\n");

  const require = createRequire(import.meta.url);
  const nextBin = require.resolve("next/dist/bin/next");
  const child = spawn(
    process.execPath,
    [nextBin, options.dev ? "dev" : "start", "-p", String(port), "-H", hostname],
    {
      cwd: projectRoot,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: options.dev ? "development" : "production" },
    },
  );
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  const code = await new Promise<number>((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 0 : 1))));
  await db.stop();
  return code;
}
