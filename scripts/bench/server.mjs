// The server under test: which process it is (for its resident size), where it is installed (its
// build output and embedded database), which database it uses (for the node:http + pg floor), and
// a sandbox workspace key to drive it with.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { log, ROOT, sleep } from "./util.mjs";

/** Inodes of the sockets listening on `port` (IPv4 and IPv6), from /proc/net/tcp*. */
function listeningInodes(port) {
  const inodes = new Set();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.trim().split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      const state = cols[3];
      if (state !== "0A") continue; // LISTEN
      if (parseInt(local.split(":").pop(), 16) === port) inodes.add(cols[9]);
    }
  }
  return inodes;
}

/**
 * The process listening on `port`: the one whose file descriptors include a listening socket of
 * that port (/proc/<pid>/fd → socket:[inode]). Under `npm start` that is the Next.js server, a
 * child of the `idv serve` launcher. Only processes of the same user (or all, as root) are visible.
 */
export function findListeningPid(port) {
  const inodes = listeningInodes(port);
  if (!inodes.size) return undefined;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds;
    try {
      fds = fs.readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target;
      try {
        target = fs.readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(m[1])) return Number(entry);
    }
  }
  return undefined;
}

export function processInfo(pid) {
  const read = (f) => {
    try {
      return fs.readFileSync(`/proc/${pid}/${f}`, "utf8");
    } catch {
      return undefined;
    }
  };
  let cwd;
  try {
    cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    cwd = undefined;
  }
  return { pid, cwd, cmdline: read("cmdline")?.split("\0").filter(Boolean).join(" ") };
}

/** Resident size of `pid` in bytes (VmRSS), or undefined once it is gone. */
export function rssOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples the resident size of `pid` every `everyMs` until stopped; keeps the maximum. */
export function sampleRss(pid, everyMs = 200) {
  const state = { max: 0, first: undefined, last: undefined, samples: 0 };
  const tick = () => {
    const rss = rssOf(pid);
    if (rss === undefined) return;
    state.first ??= rss;
    state.last = rss;
    state.samples++;
    if (rss > state.max) state.max = rss;
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    state,
    stop() {
      clearInterval(timer);
      tick();
      return state;
    },
  };
}

/**
 * The database the server works on, for the floor server: BENCH_DATABASE_URL, else DATABASE_URL,
 * else the embedded server of the server's installation, read the way the CLI finds it
 * (lib/db/embedded.ts: `.data/<IDV_EMBEDDED_PG_NAME or pg>.json` holds its port and generated
 * password; the service's database on it is `idv`).
 */
export function resolveDatabaseUrl(serverDir) {
  if (process.env.BENCH_DATABASE_URL)
    return { url: process.env.BENCH_DATABASE_URL, from: "BENCH_DATABASE_URL" };
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, from: "DATABASE_URL" };
  const name = process.env.IDV_EMBEDDED_PG_NAME ?? "pg";
  const metaFile = path.join(serverDir, ".data", `${name}.json`);
  try {
    const meta = JSON.parse(fs.readFileSync(metaFile, "utf8"));
    if (!meta.port) throw new Error("no port recorded");
    return {
      url: `postgresql://postgres:${encodeURIComponent(meta.password)}@127.0.0.1:${meta.port}/idv`,
      from: `the embedded database of ${metaFile}`,
    };
  } catch (err) {
    return { error: `cannot read ${metaFile} (${err.message})` };
  }
}

/**
 * A sandbox workspace key: BENCH_KEY, else a new workspace made with the server's own CLI
 * (`idv workspace create --json`, run in the server's directory, so that it finds the same
 * embedded database; with DATABASE_URL when the server uses one).
 */
export async function workspaceKey(serverDir, databaseUrl) {
  if (process.env.BENCH_KEY) return { key: process.env.BENCH_KEY, from: "BENCH_KEY" };
  const cli = path.join(serverDir, "bin", "idv.mjs");
  if (!fs.existsSync(cli)) throw new Error(`no CLI at ${cli}: set BENCH_KEY or BENCH_SERVER_DIR`);
  const email = `bench-${Date.now().toString(36)}@example.test`;
  const env = { ...process.env, LOG_LEVEL: "warn" };
  // the embedded database is found through the installation's .data/; an explicit URL wins
  if (process.env.BENCH_DATABASE_URL && !process.env.DATABASE_URL) env.DATABASE_URL = databaseUrl;
  const child = spawn(
    process.execPath,
    [
      cli,
      "workspace",
      "create",
      "--name",
      "Benchmark",
      "--email",
      email,
      "--password",
      "benchmark-password",
      "--json",
    ],
    { cwd: serverDir, env: { ...env, IDV_ROOT: serverDir }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  const code = await Promise.race([
    new Promise((resolve) => child.on("exit", resolve)),
    sleep(120_000).then(() => {
      child.kill("SIGKILL");
      return "timeout";
    }),
  ]);
  if (code !== 0)
    throw new Error(
      `idv workspace create failed (${code}): ${stderr.trim().slice(-500)}\n` +
        "Set BENCH_KEY to a sandbox workspace key, or run the benchmark with the server's DATABASE_URL.",
    );
  const out = JSON.parse(stdout.trim().split("\n").pop());
  log(`workspace ${out.workspaceId} created with the CLI (${email})`);
  return { key: out.keys.sandbox, from: `idv workspace create (${out.workspaceId})` };
}

/** Where the server is installed: BENCH_SERVER_DIR, else the server process's working directory, else ./ */
export function serverDirectory(pidInfo) {
  if (process.env.BENCH_SERVER_DIR) return path.resolve(process.env.BENCH_SERVER_DIR);
  if (pidInfo?.cwd && fs.existsSync(path.join(pidInfo.cwd, "package.json"))) return pidInfo.cwd;
  return ROOT;
}
