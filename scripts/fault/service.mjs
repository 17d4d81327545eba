// The production server of a fault-injection script: `idv serve` processes the script can kill
// like a crashed machine and start again, their environment, a workspace through the operator
// CLI, and the diagnosis of a server that stopped serving database requests. Test tooling.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { onCleanup } from "../support/cleanup.mjs";
import { call } from "../support/http.mjs";
import { ROOT, sleep } from "./run.mjs";

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
