// Proof under faults (1): the production server killed with SIGKILL in the middle of webhook
// deliveries, then PostgreSQL stopped and started again under API load (docs/reliability.md).
// Usage: npm run build && npm run fault:kill      (or: node scripts/fault-kill.mjs [--only kill|pg])
// It runs on a dedicated embedded PostgreSQL (.data/fault-kill-pg) unless DATABASE_URL is set (then
// the PostgreSQL-restart part is skipped: the script cannot stop that server). Loopback only;
// bounded in time (FAULT_MAX_SECONDS, default 600); every process it starts is stopped at the end.
//
// Part 1 — kill -9 mid-delivery: a slow receiver (answers after FAULT_RECEIVER_DELAY_MS, default
// 1500 ms), FAULT_SESSIONS completed sandbox sessions (6 events each) plus a trickle of sessions
// during the faults, FAULT_KILLS SIGKILLs of the whole server process group while deliveries are
// in flight, a restart after each. After each kill it prints the delivery queue (the delivery rows
// are the queue, lib/webhooks/dispatch/queue.ts) as the dead server left it. Passes when every
// event in the database reached the receiver at least once (duplicates are counted and matched
// against the requests cut off by a kill) and every delivery the dead server held under its lease
// was sent again once the lease ran out.
//
// Part 2 — PostgreSQL restart under load: FAULT_LOAD_WORKERS concurrent clients read statuses and
// create sessions; PostgreSQL is stopped for FAULT_OUTAGE_SECONDS and started again, once per
// entry of FAULT_PG_MODES (default fast,immediate,fast,immediate: fast = SIGINT, clients
// disconnected; immediate = SIGQUIT, crash recovery at start); the server is not touched. Passes
// when no request got a 500, none hung (FAULT_HANG_MS, default 15 s), the 503s carry Retry-After,
// requests succeed again within seconds of PostgreSQL's return, the server process is the same one,
// and the events emitted around the outages are all delivered. A server that stops serving
// database requests for good ("wedged") is diagnosed, then restarted to check that its
// undelivered events are not lost.
import path from "node:path";
import { killMidDelivery } from "./fault/kill-mid-delivery.mjs";
import { postgresRestart } from "./fault/postgres-restart.mjs";
import { startPostgres, sqlPool } from "./fault/postgres.mjs";
import { envNumber, log, ROOT, runScript } from "./fault/run.mjs";
import { createWorkspace, requireBuild, serviceEnv, serviceProcess } from "./fault/service.mjs";
import { startReceiver } from "./fault/webhooks.mjs";

const SERVER_PORT = envNumber("FAULT_PORT", 3310);
const RECEIVER_PORT = SERVER_PORT + 1;
const PG_PORT = envNumber("FAULT_PG_PORT", 54510);
const SESSIONS = envNumber("FAULT_SESSIONS", 20);
const KILLS = envNumber("FAULT_KILLS", 2);
const RECEIVER_DELAY_MS = envNumber("FAULT_RECEIVER_DELAY_MS", 1500);
const LOAD_WORKERS = envNumber("FAULT_LOAD_WORKERS", 6);
const OUTAGE_SECONDS = envNumber("FAULT_OUTAGE_SECONDS", 8);
const HANG_MS = envNumber("FAULT_HANG_MS", 15_000);
const MAX_SECONDS = envNumber("FAULT_MAX_SECONDS", 600);
const PG_MODES = (process.env.FAULT_PG_MODES ?? "fast,immediate,fast,immediate")
  .split(",")
  .map((m) => m.trim());
if (PG_MODES.some((m) => !["fast", "immediate"].includes(m))) {
  console.error("FAULT_PG_MODES: a comma-separated list of fast and immediate");
  process.exit(2);
}
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
if (only && !["kill", "pg"].includes(only)) {
  console.error("--only takes kill or pg");
  process.exit(2);
}

const LOG_FILE = path.join(ROOT, ".data", "fault-kill-server.log");
const DATABASE = "idv_fault_kill";

async function main() {
  requireBuild();
  const db = await startPostgres({ name: "fault-kill-pg", port: PG_PORT, database: DATABASE });
  const env = serviceEnv(db.url, {
    PUBLIC_URL: `http://localhost:${SERVER_PORT}`,
    // re-queue pending deliveries on no queue and held by nobody after 5 s instead of 60 (a dead
    // server's lease still runs its 30 s first)
    WEBHOOK_SWEEP_GRACE_SECONDS: "5",
  });
  const server = serviceProcess({ label: "server", port: SERVER_PORT, env, logFile: LOG_FILE });
  log(`starting the production server on ${server.base} (log: ${path.relative(ROOT, LOG_FILE)})`);
  await server.start();
  const pool = sqlPool(db.url);
  const key = await createWorkspace(db.url, env.IDV_MASTER_KEY);
  const receiver = await startReceiver({ port: RECEIVER_PORT, delayMs: RECEIVER_DELAY_MS });

  let ok = true;
  if (only !== "pg")
    ok =
      (await killMidDelivery({
        server,
        pool,
        key,
        receiver,
        sessions: SESSIONS,
        killCount: KILLS,
        receiverDelayMs: RECEIVER_DELAY_MS,
      })) && ok;
  if (only !== "kill") {
    if (!db.embedded)
      log("PostgreSQL restart skipped: DATABASE_URL is set, the script cannot stop that server");
    else
      ok =
        (await postgresRestart({
          server,
          pool,
          key,
          receiver,
          db,
          database: DATABASE,
          loadWorkers: LOAD_WORKERS,
          outageSeconds: OUTAGE_SECONDS,
          hangMs: HANG_MS,
          pgModes: PG_MODES,
        })) && ok;
  }
  return ok;
}

await runScript(main, { maxSeconds: MAX_SECONDS });
