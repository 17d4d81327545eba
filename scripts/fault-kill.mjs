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
// are the queue, lib/webhooks/delivery-queue.ts) as the dead server left it. Passes when every
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
import {
  completedSession,
  createApp,
  createWorkspace,
  diagnose,
  envNumber,
  formatStatus,
  log,
  requireBuild,
  ROOT,
  runScript,
  serviceEnv,
  serviceProcess,
  settleDeliveries,
  sleep,
  sqlPool,
  startPostgres,
  startReceiver,
  waitAllDelivered,
} from "./fault-support.mjs";
import { basicAuth, call } from "./support/http.mjs";

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

async function main() {
  requireBuild();
  const db = await startPostgres({ name: "fault-kill-pg", port: PG_PORT, database: "idv_fault_kill" });
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
  if (only !== "pg") ok = (await killMidDelivery({ server, pool, key, receiver })) && ok;
  if (only !== "kill") {
    if (!db.embedded)
      log("PostgreSQL restart skipped: DATABASE_URL is set, the script cannot stop that server");
    else ok = (await postgresRestart({ server, pool, key, receiver, db })) && ok;
  }
  return ok;
}

// ---------------------------------------------------------------------------------------------
// Part 1

/**
 * The app's delivery queue as it stands (the delivery rows are the queue, lib/webhooks/
 * delivery-queue.ts): the deliveries by status and, of the pending ones, those queued and due,
 * queued for a later retry, under a live lease (being sent: by the server just killed, they wait
 * for the lease to run out, then the sweeper re-queues them), and those neither queued nor held
 * (their lease ran out: the sweeper re-queues them).
 */
async function deliveryQueue(pool, appId) {
  const { rows } = await pool.query(
    `SELECT id, status,
            (status = 'pending' AND queued_trigger IS NOT NULL AND next_attempt_at <= (now() AT TIME ZONE 'UTC')) AS due,
            (status = 'pending' AND queued_trigger IS NOT NULL AND next_attempt_at > (now() AT TIME ZONE 'UTC')) AS later,
            (status = 'pending' AND queued_trigger IS NULL AND lease_until > (now() AT TIME ZONE 'UTC')) AS leased
       FROM webhook_deliveries WHERE app_id = $1`,
    [appId],
  );
  const byStatus = {};
  for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const leasedIds = rows.filter((r) => r.leased).map((r) => r.id);
  const due = rows.filter((r) => r.due).length;
  const later = rows.filter((r) => r.later).length;
  const unheld = (byStatus.pending ?? 0) - due - later - leasedIds.length;
  return {
    leasedIds,
    text:
      `deliveries ${formatStatus(byStatus)}; pending: ${due} queued and due, ${later} queued for a retry, ` +
      `${leasedIds.length} under the dead server's lease, ${unheld} on no queue and held by nobody`,
  };
}

async function killMidDelivery({ server, pool, key, receiver }) {
  console.log("\n=== Part 1: SIGKILL of the server while webhooks are being delivered ===");
  receiver.setDelay(RECEIVER_DELAY_MS);
  const app = await createApp(server.base, key, { webhookUrl: receiver.url });
  log(`app ${app.clientId}; receiver answers after ${RECEIVER_DELAY_MS} ms`);

  const sessionStats = { completed: 0, failed: 0 };
  const runBatch = async (n) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < n) {
          next++;
          const r = await completedSession(server.base, app);
          if (r.ok) sessionStats.completed++;
          else sessionStats.failed++;
        }
      }),
    );
  };
  await runBatch(SESSIONS);
  log(`${sessionStats.completed} sessions completed (6 events each); deliveries under way`);

  // a trickle of sessions continues through the kills: some of them are cut off mid-request
  let loadOn = true;
  const trickle = (async () => {
    while (loadOn) {
      const r = await completedSession(server.base, app);
      if (r.ok) sessionStats.completed++;
      else {
        sessionStats.failed++;
        await sleep(500);
      }
      await sleep(200);
    }
  })();

  const cutOff = new Set();
  // deliveries under the lease of the server at the moment it was killed
  const heldByDead = new Set();
  const kills = [];
  for (let k = 1; k <= KILLS; k++) {
    const seenBefore = receiver.requests.length;
    const until = Date.now() + 60_000;
    while (!(receiver.inFlight() >= 2 && receiver.requests.length >= seenBefore + 3) && Date.now() < until)
      await sleep(50);
    const inFlight = receiver.requests.filter((r) => !r.answered && !r.aborted);
    for (const r of inFlight) cutOff.add(r.eventId);
    log(
      `kill ${k}: SIGKILL to the server process group, ${inFlight.length} deliveries in flight at the receiver`,
    );
    await server.kill("SIGKILL");
    const queue = await deliveryQueue(pool, app.clientId);
    for (const id of queue.leasedIds) heldByDead.add(id);
    log(`        after the kill: ${queue.text}`);
    const restartAt = Date.now();
    await server.start();
    const restartSeconds = (Date.now() - restartAt) / 1000;
    log(`        restarted in ${restartSeconds.toFixed(1)} s (migrations + next start)`);
    kills.push({ inFlight: inFlight.length, restartSeconds });
  }
  await sleep(5000);
  loadOn = false;
  await trickle;
  const lastRestart = Date.now();
  log(
    `load stopped: ${sessionStats.completed} sessions completed, ${sessionStats.failed} requests cut off or failed by the kills`,
  );

  const result = await waitAllDelivered(pool, app.clientId, receiver, {
    timeoutMs: 180_000,
    label: "part 1 ",
  });
  const recoverySeconds = (Date.now() - lastRestart) / 1000;
  const { figures, final } = await settleDeliveries(pool, app.clientId, receiver);
  const explained = final.duplicated.filter(([id]) => cutOff.has(id)).length;
  const aborted = receiver.requests.filter((r) => r.clientId === app.clientId && r.aborted).length;
  const { rows: held } = await pool.query(
    "SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1::text[]) GROUP BY status",
    [[...heldByDead]],
  );
  const heldByStatus = Object.fromEntries(held.map((r) => [r.status, r.n]));
  // graphile-worker frees a dead worker's locks after 4 hours only; our sweeper does not wait for it
  const { rows: stale } = await pool.query(
    `SELECT t.identifier AS task, count(*)::int AS n
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.locked_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
  console.log("\n--- Part 1 figures ---");
  console.log(
    `kills                          ${kills.length} (in flight at each: ${kills.map((k) => k.inFlight).join(", ")})`,
  );
  console.log(
    `restart time                   ${kills.map((k) => `${k.restartSeconds.toFixed(1)} s`).join(", ")}`,
  );
  console.log(
    `sessions completed             ${sessionStats.completed} (${sessionStats.failed} API calls failed: cut off by a kill or sent while the server was down)`,
  );
  console.log(`events emitted (database)      ${final.events}`);
  console.log(
    `webhook requests received      ${final.requests} (${aborted} cut off: the sender died before the answer)`,
  );
  console.log(`unique event ids received      ${final.unique}`);
  console.log(`events never received (lost)   ${final.missing.length}`);
  console.log(`unknown event ids              ${final.unknown.length}`);
  console.log(
    `events received more than once ${final.duplicated.length} (${final.extraCopies} extra copies; ${explained} of these events were in flight at a kill)`,
  );
  console.log(`deliveries by status           ${formatStatus(figures.byStatus)}`);
  console.log(
    `attempts recorded              ${figures.attempts} (${figures.successful} successful, ${figures.failed} failed; deliveries with 2 successes: ${figures.deliveriesSucceededTwice})`,
  );
  console.log(
    `held by a killed server        ${heldByDead.size} deliveries under its lease at a kill, now: ${formatStatus(heldByStatus)}`,
  );
  console.log(`all delivered after            ${recoverySeconds.toFixed(0)} s from the last restart`);
  console.log(
    `jobs still locked by the dead workers: ${stale.map((r) => `${r.task} ${r.n}`).join(", ") || "none"} (graphile-worker frees them after 4 h)`,
  );

  const problems = [];
  if (!result.complete) problems.push(`${result.missing.length} events were not delivered within 180 s`);
  if (final.unknown.length) problems.push(`${final.unknown.length} unknown event ids received`);
  if (figures.byStatus.dead) problems.push(`${figures.byStatus.dead} deliveries are dead`);
  if (figures.byStatus.pending) problems.push(`${figures.byStatus.pending} deliveries still pending`);
  const heldNotSent = heldByDead.size - (heldByStatus.succeeded ?? 0);
  if (heldNotSent) problems.push(`${heldNotSent} deliveries held by a killed server were not sent again`);
  if (sessionStats.completed === 0) problems.push("no session completed");
  for (const p of problems) console.log(`FAIL: ${p}`);
  if (!problems.length)
    console.log(
      "OK: every event emitted was delivered at least once; duplicates are deduplicable by eventId",
    );
  return problems.length === 0;
}

// ---------------------------------------------------------------------------------------------
// Part 2

/** Buckets of one second: status → count. */
function histogram(records, from, to) {
  const rows = [];
  for (let s = Math.floor(from); s < Math.ceil(to); s++) {
    const counts = {};
    for (const r of records) if (r.t >= s && r.t < s + 1) counts[r.label] = (counts[r.label] ?? 0) + 1;
    rows.push({ s, counts });
  }
  return rows;
}

async function postgresRestart({ server, pool, key, receiver, db }) {
  console.log("\n=== Part 2: PostgreSQL stopped and started again under API load ===");
  receiver.setDelay(0);
  const app = await createApp(server.base, key, { webhookUrl: receiver.url });
  const auth = basicAuth(app.clientId, app.clientSecret);
  const bearer = `Bearer ${key}`;
  const seed = await completedSession(server.base, app);
  if (!seed.ok) throw new Error(`could not create a session before the outage (${seed.status})`);
  const serverPid = server.pid;

  const records = [];
  const sessions = [seed.id];
  let phaseStart = performance.now();
  const now = () => (performance.now() - phaseStart) / 1000;
  const requests = [
    () =>
      call(server.base, "GET", `/api/sandbox/v1/verifications/${sessions.at(-1)}`, {
        auth,
        timeoutMs: HANG_MS,
      }),
    () =>
      call(server.base, "GET", `/api/sandbox/v1/apps/${app.clientId}`, { auth: bearer, timeoutMs: HANG_MS }),
    () =>
      call(server.base, "POST", "/api/sandbox/v1/verifications", {
        auth,
        body: { providerId: "passport" },
        timeoutMs: HANG_MS,
      }),
    () => call(server.base, "GET", "/api/sandbox/v1/providers", { auth, timeoutMs: HANG_MS }),
  ];
  const names = ["GET verification", "GET app", "POST verification", "GET providers"];
  let loadOn = false;
  const worker = async (w) => {
    let i = w;
    while (loadOn) {
      const which = i++ % requests.length;
      const t = now();
      const res = await requests[which]();
      const label =
        typeof res.status === "number" ? String(res.status) : res.status === "timeout" ? "HANG" : "conn-err";
      records.push({
        t,
        ms: res.ms,
        label,
        status: res.status,
        name: names[which],
        retryAfter: res.headers?.get("retry-after") ?? null,
        code: res.body?.error?.code,
      });
      if (which === 2 && res.status === 201) sessions.push(res.body.verificationId);
      // connection errors come back at once: do not spin
      if (typeof res.status !== "number") await sleep(100);
    }
  };

  const problems = [];
  let wedged = false; // set when the server stopped serving database requests for good
  for (const mode of PG_MODES) {
    records.length = 0;
    phaseStart = performance.now();
    loadOn = true;
    const workers = Array.from({ length: LOAD_WORKERS }, (_, w) => worker(w));
    await sleep(3000);
    const stopAt = now();
    log(`round ${mode}: stopping PostgreSQL (${mode} shutdown) under ${LOAD_WORKERS} concurrent clients`);
    await db.stop(mode);
    const downAt = now();
    await sleep(OUTAGE_SECONDS * 1000);
    const startAt = now();
    log(`round ${mode}: starting PostgreSQL again after ${(startAt - stopAt).toFixed(1)} s`);
    await db.start();
    const upAt = now();
    await sleep(12_000);
    loadOn = false;
    await Promise.all(workers);
    const endAt = now();

    const during = records.filter((r) => r.t >= stopAt && r.t < upAt);
    const firstOkAfter = records
      .filter((r) => r.t >= upAt && r.status >= 200 && r.status < 300)
      .sort((a, b) => a.t - b.t)[0];
    const tail = records.filter((r) => r.t >= endAt - 5);
    const before = records.filter((r) => r.t < stopAt);
    const byLabel = (rs) => {
      const m = {};
      for (const r of rs) m[r.label] = (m[r.label] ?? 0) + 1;
      return Object.entries(m)
        .sort()
        .map(([k, v]) => `${k}×${v}`)
        .join(" ");
    };
    console.log(`\n--- Part 2, ${mode} shutdown: status codes per second (t = seconds since load start) ---`);
    console.log("   t  " + "event".padEnd(22) + "responses (by the second they were sent)");
    for (const { s, counts } of histogram(records, 0, endAt)) {
      const marks = [];
      if (stopAt >= s && stopAt < s + 1) marks.push("PG stop");
      if (downAt >= s && downAt < s + 1) marks.push("PG down");
      if (startAt >= s && startAt < s + 1) marks.push("PG start");
      if (upAt >= s && upAt < s + 1) marks.push("PG up");
      const text = Object.entries(counts)
        .sort()
        .map(([k, v]) => `${k}×${v}`)
        .join(" ");
      console.log(`${String(s).padStart(4)}  ${marks.join(", ").padEnd(22)}${text}`);
    }
    const outageMs = during.map((r) => r.ms).sort((a, b) => a - b);
    console.log(
      `during the outage: ${during.length} requests: ${byLabel(during)}; latency p50 ${Math.round(outageMs[Math.floor(outageMs.length / 2)] ?? 0)} ms, max ${Math.round(outageMs.at(-1) ?? 0)} ms`,
    );
    const errorCodes = {};
    for (const r of during)
      if (r.code) errorCodes[`${r.status} ${r.code}`] = (errorCodes[`${r.status} ${r.code}`] ?? 0) + 1;
    console.log(
      `error codes during the outage: ${
        Object.entries(errorCodes)
          .map(([k, v]) => `${k}×${v}`)
          .join(", ") || "none"
      }`,
    );
    const with503 = records.filter((r) => r.status === 503);
    console.log(
      `503 responses with Retry-After: ${with503.filter((r) => r.retryAfter !== null).length}/${with503.length}`,
    );
    console.log(
      `first success ${firstOkAfter ? `${(firstOkAfter.t - upAt).toFixed(1)} s` : "never"} after PostgreSQL was up again; last 5 s: ${byLabel(tail)} (${(tail.length / 5).toFixed(0)} req/s; before the stop: ${(before.length / 3).toFixed(0)} req/s)`,
    );

    const n500 = records.filter((r) => r.status === 500).length;
    const hangs = records.filter((r) => r.status === "timeout").length;
    const conn = records.filter((r) => r.status === "conn-error").length;
    const other5xx = records.filter(
      (r) => typeof r.status === "number" && r.status >= 500 && r.status !== 503,
    );
    if (n500) problems.push(`${mode}: ${n500} responses were 500 (expected 503 SERVICE_UNAVAILABLE)`);
    if (other5xx.length > n500) problems.push(`${mode}: ${other5xx.length - n500} other 5xx responses`);
    if (hangs) {
      problems.push(`${mode}: ${hangs} requests got no answer within ${HANG_MS} ms`);
      await diagnose(server, pool, "idv_fault_kill");
    }
    if (conn) problems.push(`${mode}: ${conn} connection errors (the server stopped answering)`);
    if (with503.some((r) => r.retryAfter === null)) problems.push(`${mode}: 503 without Retry-After`);
    if (!firstOkAfter) {
      problems.push(`${mode}: no request succeeded after PostgreSQL came back: the server is wedged`);
      log("the server no longer serves database requests: further rounds are skipped");
      wedged = true;
      break;
    }
    if (tail.some((r) => !(typeof r.status === "number" && r.status < 300)))
      problems.push(`${mode}: requests still failing 7 s after PostgreSQL came back`);
  }
  if (!server.running() || server.pid !== serverPid) problems.push("the server process did not survive");
  else log(`the server process (pid ${serverPid}) was not restarted during the rounds`);
  if (wedged) {
    // the failure is already recorded; show that a restart brings the undelivered events out
    log("restarting the wedged server to check that its undelivered events are not lost");
    await server.kill("SIGTERM");
    await server.start();
  }

  const delivered = await waitAllDelivered(pool, app.clientId, receiver, {
    timeoutMs: 150_000,
    label: "part 2 ",
  });
  const { figures, final } = await settleDeliveries(pool, app.clientId, receiver);
  console.log("\n--- Part 2 webhook figures (sessions created around the outages) ---");
  console.log(
    `events emitted ${final.events}, received ${final.unique} unique in ${final.requests} requests, lost ${final.missing.length}, duplicates ${final.extraCopies}`,
  );
  console.log(
    `deliveries by status: ${formatStatus(figures.byStatus)}; attempts ${figures.attempts} (${figures.failed} failed)`,
  );
  if (!delivered.complete) problems.push(`${delivered.missing.length} events of part 2 were not delivered`);
  if (figures.byStatus.dead) problems.push(`${figures.byStatus.dead} deliveries of part 2 are dead`);
  for (const p of problems) console.log(`FAIL: ${p}`);
  if (!problems.length) console.log("OK: clean 503s during the outages, full recovery without a restart");
  return problems.length === 0;
}

await runScript(main, { maxSeconds: MAX_SECONDS });
