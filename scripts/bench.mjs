// The benchmark suite (issue 15; docs/benchmarks.md, "Benchmark suite"): floors, the peer and
// our hot paths measured side by side in one run against a RUNNING production build.
//
//   npm run bench [-- --json] [-- --only row,row] [-- --strict]   (or node scripts/bench.mjs …)
//
// It starts only what it needs, on free ports of 127.0.0.1, and stops them at the end: a bare
// node:http + pg server (the floor) on the server's own database, oidc-provider (the peer), and a
// webhook receiver. Rows (ids for --only; a row's baseline is added to the run): floor, static,
// peer-discovery, peer-jwks, peer-userinfo, peer-token, discovery, jwks, get-verification,
// get-app, post-verification, rest-token, op-token, userinfo, webhooks, memory, first-load.
//
// Environment:
//   BENCH_URL            the server (default http://127.0.0.1:3000); loopback only
//   BENCH_SECONDS        seconds of load per row (default 5; plus 1 s of warm-up)
//   BENCH_KEY            a sandbox workspace key; without it a workspace is created with the
//                        server's CLI (idv workspace create) on the server's database
//   BENCH_DATABASE_URL   the server's database (else DATABASE_URL, else the server's embedded one)
//   BENCH_PID            the server process to watch (else the one listening on BENCH_URL's port)
//   BENCH_SERVER_DIR     the server's installation (else that process's working directory)
//   BENCH_NEXT_DIR       its build output (default $BENCH_SERVER_DIR/.next)
//   BENCH_CODES          one-time codes per /token row (default 300)
//   BENCH_WEBHOOK_RATE   sessions per second of the webhook row (default 100)
//   BENCH_WEBHOOK_SECONDS  duration of the webhook row (default BENCH_SECONDS)
//   BENCH_MAX_SECONDS    hard limit of the whole run (default 300)
// The server must be started with WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 (the receiver is on
// 127.0.0.1), and, for the code-minting setup, IDV_HOSTED_LIMIT_IP and IDV_OIDC_AUTH_LIMIT_IP
// above what the run needs (every code costs hosted-page actions from 127.0.0.1).
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { firstLoadJs } from "./bench/first-load.mjs";
import {
  createApp,
  createSession,
  deleteApp,
  mintCodes,
  mintOpCode,
  mintPeerCode,
  mintRestCode,
  opTokenForm,
  redeemOpCode,
  restTokenForm,
  webhookReaches,
} from "./bench/flows.mjs";
import { codesRow, CONNECTIONS, timedRow } from "./bench/load.mjs";
import { evaluate, selectRows, table } from "./bench/report.mjs";
import {
  findListeningPid,
  processInfo,
  resolveDatabaseUrl,
  sampleRss,
  serverDirectory,
  workspaceKey,
} from "./bench/server.mjs";
import { webhookPhase } from "./bench/webhooks.mjs";
import { isLoopback, log, sleep, startChild } from "./bench/util.mjs";
import { cleanup, onCleanup } from "./support/cleanup.mjs";
import { basicAuth, call, expectStatus } from "./support/http.mjs";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const valueOf = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
};
if (flag("--help") || flag("-h")) {
  const text = (await import("node:fs")).readFileSync(new URL(import.meta.url), "utf8");
  console.log(
    text
      .split("\n")
      .filter((l) => l.startsWith("//"))
      .map((l) => l.slice(3))
      .join("\n"),
  );
  process.exit(0);
}
const json = flag("--json");
const num = (name, fallback) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) {
    console.error(`${name} must be a positive number`);
    process.exit(2);
  }
  return v;
};
const base = (process.env.BENCH_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
const seconds = num("BENCH_SECONDS", 5);
const codeCount = Math.round(num("BENCH_CODES", 300));
const webhookRate = num("BENCH_WEBHOOK_RATE", 100);
const webhookSeconds = num("BENCH_WEBHOOK_SECONDS", seconds);
const maxSeconds = num("BENCH_MAX_SECONDS", 300);
let rows;
try {
  rows = selectRows(valueOf("--only"));
} catch (err) {
  console.error(err.message);
  process.exit(2);
}
if (!isLoopback(base)) {
  console.error(
    "The benchmark only targets loopback addresses (BENCH_URL on 127.0.0.1, localhost or [::1]).",
  );
  process.exit(2);
}

const results = {};
const notes = [];
const LIMIT_HINT =
  " — a 429 means the server's request limits are too low for the setup: start it with IDV_HOSTED_LIMIT_IP=1000000 IDV_OIDC_AUTH_LIMIT_IP=1000000";
const note = (text) => {
  if (/\b429\b/.test(text)) text += LIMIT_HINT;
  notes.push(text);
  log(`note: ${text}`);
};

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  // --- the server ------------------------------------------------------------------------------
  const probe = await call(base, "GET", "/api/sandbox/v1/openapi.json", { timeoutMs: 10_000 });
  if (probe.status !== 200)
    throw new Error(
      `no server answers at ${base} (${probe.status}); start one with \`npm run build && npm start\``,
    );
  const port = Number(new URL(base).port || 80);
  const pid = Number(process.env.BENCH_PID) || findListeningPid(port);
  const pinfo = pid ? processInfo(pid) : undefined;
  const serverDir = serverDirectory(pinfo);
  const nextDir = path.resolve(process.env.BENCH_NEXT_DIR ?? path.join(serverDir, ".next"));
  log(
    `server ${base}: pid ${pid ?? "unknown"} (${pinfo?.cmdline?.slice(0, 80) ?? "not found"}), directory ${serverDir}`,
  );
  const rss = pid ? sampleRss(pid) : undefined;
  if (!pid) note("server process not found (set BENCH_PID): no memory figure");
  // only what the selected rows need: the database (floor, deliveries), a workspace and its apps
  // (every row on our API), the webhook receiver
  const needsApps = [
    "floor",
    "get-verification",
    "get-app",
    "post-verification",
    "rest-token",
    "op-token",
    "userinfo",
    "webhooks",
  ].some((id) => rows.has(id));
  const needsDb = ["floor", "post-verification", "webhooks"].some((id) => rows.has(id));
  const needsReceiver = rows.has("post-verification") || rows.has("webhooks");
  const db = resolveDatabaseUrl(serverDir);
  if (db.error && needsDb)
    throw new Error(
      `the server's database is unknown: ${db.error}. Set BENCH_DATABASE_URL (or DATABASE_URL) to the server's database.`,
    );
  let postgresVersion;
  if (!db.error) {
    log(`database: ${db.from}`);
    const client = new pg.Client({ connectionString: db.url, application_name: "bench" });
    try {
      await client.connect();
      postgresVersion = (await client.query("SHOW server_version")).rows[0].server_version;
    } catch (err) {
      if (needsDb) throw new Error(`cannot reach the server's database (${db.from}): ${err.message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const { key, from: keyFrom } = needsApps ? await workspaceKey(serverDir, db.url) : {};

  // --- what the suite starts -------------------------------------------------------------------
  let receiver;
  let receiverUrl;
  if (needsReceiver) {
    receiver = await startChild("receiver-server.mjs");
    receiverUrl = `http://127.0.0.1:${receiver.port}/webhook`;
    log(`webhook receiver on ${receiverUrl}`);
  }
  let main;
  let codesApp;
  let hooksApp;
  let verificationId;
  if (needsApps) {
    main = await createApp(base, key, { name: "Benchmark (API rows)", webhookUrl: receiverUrl });
    codesApp = await createApp(base, key, { name: "Benchmark (codes)" });
    hooksApp = await createApp(base, key, {
      name: "Benchmark (webhook latency)",
      webhookUrl: receiverUrl,
    });
    onCleanup(() => Promise.all([main, codesApp, hooksApp].map((a) => deleteApp(base, key, a))));
    if (receiver && !(await webhookReaches(base, key, main, receiver))) {
      note(
        "the webhook test event did not reach the receiver on 127.0.0.1 within 10 s: start the server with WEBHOOK_ALLOW_PRIVATE_NETWORKS=1",
      );
    }
    const seed = expectStatus(await createSession(base, main), 201, "creating the status-read session");
    verificationId = seed.verificationId;
  }

  const bearer = `Bearer ${key}`;
  const floor = rows.has("floor")
    ? await startChild("floor-server.mjs", {
        FLOOR_DATABASE_URL: db.url,
        FLOOR_VERIFICATION_ID: verificationId,
      })
    : undefined;
  const needsPeer = [...rows].some((r) => r.startsWith("peer-"));
  const peer = needsPeer ? await startChild("peer-server.mjs") : undefined;
  const peerBase = peer && `http://127.0.0.1:${peer.port}`;

  const timed = async (id, url, options = {}) => {
    if (!rows.has(id)) return;
    log(`${id}: ${options.method ?? "GET"} ${url}`);
    results[id] = await timedRow({ url, seconds, ...options });
    const r = results[id];
    log(`${id}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}`);
  };
  const codes = async (id, url, auth, bodies) => {
    log(`${id}: POST ${url} over ${bodies.length} codes`);
    results[id] = await codesRow({ url, headers: { authorization: auth }, bodies });
    const r = results[id];
    if (r.skipped) log(`${id}: skipped (${r.skipped})`);
    else
      log(
        `${id}: ${r.rps.toFixed(0)} req/s over ${r.requests} requests, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}`,
      );
  };

  // --- floors ------------------------------------------------------------------------------------
  if (floor) await timed("floor", `http://127.0.0.1:${floor.port}/`);
  await timed("static", `${base}/`);

  // --- the peer ----------------------------------------------------------------------------------
  if (peer) {
    const peerAuth = basicAuth(peer.client.client_id, peer.client.client_secret);
    await timed("peer-discovery", `${peerBase}/.well-known/openid-configuration`);
    await timed("peer-jwks", `${peerBase}/jwks`);
    const wantToken = rows.has("peer-token");
    const wantUserinfo = rows.has("peer-userinfo");
    const minted =
      wantToken || wantUserinfo
        ? await mintCodes(
            "peer codes",
            (wantToken ? codeCount : 0) + 1,
            () => mintPeerCode(peerBase, peer.client),
            { concurrency: 4 },
          )
        : { codes: [] };
    if (minted.failure) note(`peer codes: ${minted.failure}`);
    const [first, ...rest] = minted.codes;
    if (rows.has("peer-userinfo") && first) {
      const token = await redeemOpCode(peerBase, "/token", peerAuth, first);
      expectStatus(token, 200, "redeeming a peer code");
      await timed("peer-userinfo", `${peerBase}/me`, {
        headers: { authorization: `Bearer ${token.body.access_token}` },
      });
    }
    if (wantToken) await codes("peer-token", `${peerBase}/token`, peerAuth, rest.map(opTokenForm));
  }

  // --- ours: documents and reads -----------------------------------------------------------------
  await timed("discovery", `${base}/oidc/sandbox/.well-known/openid-configuration`);
  await timed("jwks", `${base}/oidc/sandbox/jwks`);
  await timed("get-verification", `${base}/api/sandbox/v1/verifications/${verificationId}`, {
    headers: { authorization: main?.basic },
  });
  await timed("get-app", `${base}/api/sandbox/v1/apps/${main?.clientId}`, {
    headers: { authorization: bearer },
  });

  // --- ours: session creation, with its webhook deliveries ---------------------------------------
  if (rows.has("post-verification")) {
    await timed("post-verification", `${base}/api/sandbox/v1/verifications`, {
      method: "POST",
      headers: { authorization: main.basic, "content-type": "application/json" },
      body: JSON.stringify({ providerId: "passport" }),
    });
    // let its deliveries finish before the next row (bounded)
    const client = new pg.Client({ connectionString: db.url, application_name: "bench" });
    await client.connect();
    const until = Date.now() + 60_000;
    let pending = 0;
    do {
      pending = (
        await client.query(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE app_id = $1 AND status = 'pending'",
          [main.clientId],
        )
      ).rows[0].n;
      if (pending) await sleep(500);
    } while (pending && Date.now() < until);
    await client.end();
    const arrived = (await receiver.ask("records", { clientId: main.clientId, clear: true })).length;
    results["post-verification"].webhooksReceived = arrived;
    log(
      `post-verification: ${arrived} webhook deliveries received${pending ? `, ${pending} still pending` : ""}`,
    );
  }

  // --- ours: the code exchanges (codes minted just before: they live 60 s) -----------------------
  if (rows.has("rest-token")) {
    const minted = await mintCodes("REST codes", codeCount, () => mintRestCode(base, codesApp));
    if (minted.failure) note(`REST codes: ${minted.failure}`);
    await codes("rest-token", `${base}/api/sandbox/token`, codesApp.basic, minted.codes.map(restTokenForm));
  }
  if (rows.has("op-token") || rows.has("userinfo")) {
    const minted = await mintCodes("OP codes", (rows.has("op-token") ? codeCount : 0) + 1, () =>
      mintOpCode(base, codesApp),
    );
    if (minted.failure) note(`OP codes: ${minted.failure}`);
    const [first, ...rest] = minted.codes;
    let accessToken;
    if (first) {
      const token = await redeemOpCode(base, "/oidc/sandbox/token", codesApp.basic, first);
      expectStatus(token, 200, "redeeming an OP code");
      accessToken = token.body.access_token;
    }
    if (rows.has("op-token"))
      await codes("op-token", `${base}/oidc/sandbox/token`, codesApp.basic, rest.map(opTokenForm));
    if (rows.has("userinfo")) {
      if (accessToken)
        await timed("userinfo", `${base}/oidc/sandbox/userinfo`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
      else results.userinfo = { skipped: "no access token" };
    }
  }

  // --- ours: webhook latency at a fixed session rate ---------------------------------------------
  if (rows.has("webhooks")) {
    log(`webhooks: ${webhookRate} sessions/s for ${webhookSeconds} s`);
    results.webhooks = await webhookPhase({
      base,
      app: hooksApp,
      receiver,
      databaseUrl: db.url,
      rate: webhookRate,
      seconds: webhookSeconds,
    });
    const w = results.webhooks;
    log(
      `webhooks: p50 ${w.p50} ms, p99 ${w.p99} ms, ${w.received}/${w.events} events, ${w.lost} lost, ${w.duplicated} duplicated`,
    );
  }

  // --- memory and the build ----------------------------------------------------------------------
  if (rss) {
    const s = rss.stop();
    if (rows.has("memory"))
      results.memory = {
        maxMB: s.max / 1048576,
        firstMB: s.first / 1048576,
        lastMB: s.last / 1048576,
        samples: s.samples,
        pid,
      };
  }
  if (rows.has("first-load")) {
    try {
      const fl = firstLoadJs(nextDir);
      // the build must be the one the server serves: it serves this build's first chunk
      const probeChunk = fl.chunks[0] && (await call(base, "GET", `/_next/${fl.chunks[0].file}`));
      if (probeChunk && probeChunk.status !== 200)
        note(
          `${nextDir} does not look like the running server's build (its ${fl.chunks[0].file} answers ${probeChunk.status}); set BENCH_NEXT_DIR`,
        );
      results["first-load"] = { ...fl, nextDir };
    } catch (err) {
      results["first-load"] = { skipped: err.message };
      note(`first-load JS: ${err.message} (set BENCH_NEXT_DIR to the server's .next)`);
    }
  }

  return {
    startedAt: startedAt.toISOString(),
    durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGB: Math.round(os.totalmem() / 1073741824),
      node: process.version,
      postgres: postgresVersion,
      loadAverageBefore: loadBefore.map((n) => Number(n.toFixed(2))),
      loadAverageAfter: os.loadavg().map((n) => Number(n.toFixed(2))),
    },
    settings: {
      url: base,
      secondsPerRow: seconds,
      connections: CONNECTIONS,
      codesPerTokenRow: codeCount,
      webhookRate,
      webhookSeconds,
      workspaceKey: keyFrom,
      database: db.from ?? db.error,
      serverPid: pid,
      serverDir,
      nextDir,
    },
  };
}

const watchdog = setTimeout(() => {
  console.error(`\nThe benchmark ran longer than BENCH_MAX_SECONDS (${maxSeconds} s); stopping.`);
  void cleanup().finally(() => process.exit(1));
}, maxSeconds * 1000);
let exitCode = 0;
try {
  const run = await main();
  const entries = evaluate(results);
  if (json) {
    process.stdout.write(`${JSON.stringify({ ...run, rows: entries, notes }, null, 2)}\n`);
  } else {
    const m = run.machine;
    console.log(
      `\nBenchmark suite — ${run.settings.url}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGB} GB, Node ${m.node}, PostgreSQL ${m.postgres}`,
    );
    console.log(
      `${run.settings.connections} connections, ${run.settings.secondsPerRow} s per row (+1 s warm-up), ${run.settings.codesPerTokenRow} codes per /token row, ` +
        `webhooks at ${run.settings.webhookRate} sessions/s for ${run.settings.webhookSeconds} s; load average ${m.loadAverageBefore[0]} → ${m.loadAverageAfter[0]}; ${run.durationSeconds} s\n`,
    );
    console.log(table(entries));
    if (notes.length) console.log(`\n${notes.map((n) => `Note: ${n}`).join("\n")}`);
  }
  if (flag("--strict") && entries.some((e) => e.pass === false)) exitCode = 1;
} catch (err) {
  console.error(`\nbenchmark failed: ${err.message}`);
  if (process.env.BENCH_DEBUG) console.error(err.stack);
  exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
process.exit(exitCode);
