// Small helpers of the benchmark suite (scripts/bench.mjs): child processes the suite starts (ended
// on exit, failure or Ctrl-C through scripts/support/cleanup.mjs), free loopback ports, a bounded
// worker pool, statistics. HTTP is scripts/support/http.mjs.
import { fork } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onCleanup } from "../support/cleanup.mjs";

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, "..", "..");
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
export const isLoopback = (url) => LOOPBACK.has(new URL(url).hostname);

// ---------------------------------------------------------------------------------------------
// Progress lines go to stderr, so that --json keeps stdout to exactly one JSON document.

const t0 = performance.now();
export function log(message) {
  process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}

/**
 * Forks one of the suite's own servers (scripts/bench/*-server.mjs) and waits for its
 * `{ ready: true, port }` message. The child is killed on cleanup.
 */
export async function startChild(file, env = {}) {
  const child = fork(path.join(BENCH_DIR, file), [], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(3000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start within 30 s`)), 30_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      if (m?.error) reject(new Error(`${file}: ${m.error}`));
      else resolve(m);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${code}) during start-up`));
    });
  });
  let seq = 0;
  const pending = new Map();
  child.on("message", (m) => {
    const p = pending.get(m?.reply);
    if (p) {
      pending.delete(m.reply);
      p(m.data);
    }
  });
  return {
    ...ready,
    pid: child.pid,
    /** Request → reply over IPC (the receiver's records, for example). */
    ask(type, data) {
      const id = ++seq;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.send({ id, type, data });
      });
    },
  };
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `worker(i)` for i in [0, n) with at most `concurrency` at once; stops early when asked. */
export async function pool(n, concurrency, worker) {
  let next = 0;
  let stop = false;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (!stop && next < n) {
        const i = next++;
        if ((await worker(i)) === false) stop = true;
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Statistics

/** The q-quantile (0..1) of numbers, nearest rank; undefined when empty. */
export function quantile(values, q) {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
