// Proof under faults (3): several instances behind a real load balancer (docs/reliability.md,
// docs/deployment.md "Running behind nginx"). Usage: npm run build && npm run fault:cluster
// (needs Debian's nginx: `apt-get install nginx-light`).
// Three web instances (IDV_JOBS=off, ports FAULT_PORT…+2, default 3330…3332) and one worker
// instance (IDV_JOBS=on, port +3, not behind the balancer) share one PostgreSQL; nginx listens on
// port +4 with the project's own proxy settings (deploy/nginx/idv-proxy.conf) and the three web
// instances as its upstream. For CLUSTER_SECONDS (default 30) the script sends, through nginx,
// session creations (POST, 4 connections) and reads of the app and of a session (GET, 4 + 4
// connections) and, on two more connections, apps created with an Idempotency-Key (each sent again
// with its key until answered 201), while:
//   - at 1/3 of the run, instance A is killed (SIGKILL: a crashed machine) and started again;
//   - at 1/2, instance B is stopped gracefully (SIGTERM, as an orchestrator does), and started
//     again once it has exited.
// Then: an OpenID Provider sign-in with each step on another instance, a client id's failed
// secrets counted across the three (the 31st refused 429), and an app changed on A used through B
// at once (its cache invalidated across instances); and it waits until the worker has delivered
// every event. Passes when: no GET failed (nginx tried it on another instance); the only failed
// POSTs are 502s within 2 s of A's kill (requests A had received: nginx does not resend them);
// every session the clients got a 201 for exists and got its events delivered; every keyed
// creation ended with its 201 and created exactly one app; the three checks across instances hold;
// B's graceful stop exited 0; every instance answers /readyz 200. Bounded in time
// (FAULT_MAX_SECONDS, default 420); stops everything it started.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startPostgres, sqlPool } from "./fault/postgres.mjs";
import { createApp } from "./fault/rest-api.mjs";
import { elapsed, envNumber, log, ROOT, runScript, sleep } from "./fault/run.mjs";
import { createWorkspace, requireBuild, serviceEnv, serviceProcess } from "./fault/service.mjs";
import { settleDeliveries, startReceiver, waitAllDelivered } from "./fault/webhooks.mjs";
import { onCleanup } from "./support/cleanup.mjs";
import { basicAuth, call, CookieJar } from "./support/http.mjs";

const REDIRECT_URI = "https://rp.example.com/cb";

const PORT = envNumber("FAULT_PORT", 3330);
const WORKER_PORT = PORT + 3;
const BALANCER_PORT = PORT + 4;
const RECEIVER_PORT = PORT + 5;
const PG_PORT = envNumber("FAULT_PG_PORT", 54530);
const SECONDS = envNumber("CLUSTER_SECONDS", 30);
const MAX_SECONDS = envNumber("FAULT_MAX_SECONDS", 420);
const DATABASE = "idv_fault_cluster";

function requireNginx() {
  const found = spawnSync("nginx", ["-v"], { encoding: "utf8" });
  if (found.error) {
    console.error("nginx is not installed: `apt-get install nginx-light` (Debian), then run this again.");
    process.exit(2);
  }
  return (found.stderr || found.stdout).trim();
}

/** nginx in the foreground with the project's proxy settings and `ports` as the upstream. */
async function startBalancer(ports) {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "idv-nginx-"));
  const conf = path.join(prefix, "nginx.conf");
  fs.writeFileSync(
    conf,
    `worker_processes 2;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream idv {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;`).join("\n")}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${BALANCER_PORT};
    # nginx closes a client's keep-alive connection after 1000 requests; autocannon may have sent
    # the next request by then and counts the reset as an error of the service: not here
    keepalive_requests 1000000;
    include ${path.join(ROOT, "deploy", "nginx", "idv-proxy.conf")};
  }
}
`,
  );
  const child = spawn("nginx", ["-p", prefix, "-c", conf, "-g", "daemon off;"], { stdio: "inherit" });
  onCleanup(
    async () => {
      child.kill("SIGQUIT");
      await sleep(200);
    },
    () => child.kill("SIGKILL"),
  );
  const base = `http://127.0.0.1:${BALANCER_PORT}`;
  for (let i = 0; i < 50; i++) {
    try {
      await fetch(`${base}/healthz`);
      return { base, errorLog: path.join(prefix, "error.log") };
    } catch {
      await sleep(100);
    }
  }
  throw new Error("nginx did not start");
}

/**
 * What must hold whichever instance a request lands on, each step sent to another instance on
 * purpose: an OpenID Provider sign-in (/auth on A, the hosted page on B, the simulator on C, the
 * resume on C, /token on B: its three OpenID steps each on another instance); a rate limit (a client id's failed secrets, counted on all three);
 * a cached app (its redirect URIs changed on A, used at once on B, which had cached it).
 */
async function acrossInstances([a, b, c], key, receiver) {
  const problems = [];
  const app = await createApp(a.base, key, { webhookUrl: receiver.url, redirectUris: [REDIRECT_URI] });
  const basic = basicAuth(app.clientId, app.clientSecret);

  // 1. one sign-in, every step on another instance than the one before
  const jar = new CookieJar();
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid",
    provider: "passport",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: "s",
  });
  const auth = await call(a.base, "GET", `/oidc/sandbox/auth?${query}`, { jar });
  const handoff = auth.headers?.get("location") ?? "";
  const id = new URL(handoff, a.base).pathname.split("/")[2] ?? "";
  const bound = await call(b.base, "GET", handoff, { jar });
  const simulated = await call(c.base, "POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
    auth: basic,
    body: { outcome: "success" },
  });
  const status = await call(b.base, "GET", `/verify/${id}/status`, { jar });
  const resumed = status.body?.next ? await call(c.base, "GET", status.body.next, { jar }) : undefined;
  const code = resumed?.headers?.get("location")
    ? new URL(resumed.headers.get("location")).searchParams.get("code")
    : null;
  const token = code
    ? await call(b.base, "POST", "/oidc/sandbox/token", {
        auth: basic,
        form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
      })
    : undefined;
  const steps = [auth.status, bound.status, simulated.status, status.status, resumed?.status, token?.status];
  console.log(
    `OIDC sign-in across instances (auth A, bind B, simulate C, status B, resume C, token B): ${steps.join(", ")}`,
  );
  if (token?.status !== 200 || typeof token.body?.id_token !== "string")
    problems.push(`the sign-in across instances failed: ${steps.join(", ")}`);

  // 2. a client id's failed secrets are counted once for all instances (IDV_CREDENTIAL_LIMIT_CLIENT)
  const wrong = basicAuth(app.clientId, "not-the-secret");
  const limit = 30;
  const answers = [];
  for (let i = 0; i <= limit; i++) {
    const instance = [a, b, c][i % 3];
    answers.push((await call(instance.base, "GET", "/api/sandbox/v1/providers", { auth: wrong })).status);
  }
  const refused = answers.indexOf(429);
  console.log(
    `a client id's wrong secret, sent round robin to A, B, C: first 429 at attempt ${refused + 1} (limit ${limit})`,
  );
  if (refused !== limit || answers.slice(0, limit).some((s) => s !== 401))
    problems.push(`the credential limit was not shared: ${answers.join(",")}`);

  // 3. a cached app changed on one instance is seen changed on another at once
  const other = "https://rp.example.org/callback";
  const before = new URLSearchParams({ ...Object.fromEntries(query), redirect_uri: other });
  const cached = await call(b.base, "GET", `/oidc/sandbox/auth?${before}`, {});
  const patched = await call(a.base, "PATCH", `/api/sandbox/v1/apps/${app.clientId}`, {
    auth: `Bearer ${key}`,
    body: { redirectUris: [REDIRECT_URI, other] },
  });
  const after = await call(b.base, "GET", `/oidc/sandbox/auth?${before}`, {});
  console.log(
    `app changed on A, used on B: /auth with the new redirect URI ${cached.status} before, ${after.status} after`,
  );
  if (cached.status !== 400 || patched.status !== 200 || after.status !== 303)
    problems.push(
      `the app's change on A was not seen on B: ${cached.status}, ${patched.status}, ${after.status}`,
    );
  return problems;
}

/** Counts of the answers by status ("error" for a failed connection), from autocannon. */
function statuses(result) {
  const counts = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) counts[code] = count;
  if (result.errors) counts.error = result.errors;
  return counts;
}

const format = (counts) =>
  Object.entries(counts)
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");

async function main() {
  requireBuild();
  log(requireNginx());
  const db = await startPostgres({ name: "fault-cluster-pg", port: PG_PORT, database: DATABASE });
  const env = serviceEnv(db.url, {
    PUBLIC_URL: `http://127.0.0.1:${BALANCER_PORT}`,
    IDV_TRUST_PROXY_HOPS: "1",
  });
  const logFile = (label) => path.join(ROOT, ".data", `fault-cluster-${label}.log`);
  const worker = serviceProcess({
    label: "W",
    port: WORKER_PORT,
    env: { ...env, IDV_JOBS: "on" },
    logFile: logFile("W"),
  });
  // the worker first: it applies the migrations the others then find done
  await worker.start();
  const web = ["A", "B", "C"].map((label, i) =>
    serviceProcess({ label, port: PORT + i, env: { ...env, IDV_JOBS: "off" }, logFile: logFile(label) }),
  );
  await Promise.all(web.map((instance) => instance.start()));
  const [a, b] = web;
  const balancer = await startBalancer(web.map((instance) => instance.port));
  log(
    `web instances A, B, C on ${PORT}…${PORT + 2} (no jobs), worker W on ${WORKER_PORT}, nginx on ${balancer.base}`,
  );

  const pool = sqlPool(db.url);
  const key = await createWorkspace(db.url, env.IDV_MASTER_KEY);
  const receiver = await startReceiver({ port: RECEIVER_PORT });
  const app = await createApp(balancer.base, key, { webhookUrl: receiver.url });
  const auth = basicAuth(app.clientId, app.clientSecret);
  const seed = await call(balancer.base, "POST", "/api/sandbox/v1/verifications", {
    auth,
    body: { providerId: "passport" },
  });
  const problems = [];

  console.log(
    `\n=== Load through nginx for ${SECONDS} s; A killed at ${Math.round(SECONDS / 3)} s, B stopped at ${Math.round(SECONDS / 2)} s ===`,
  );
  const created = [];
  // what a client saw go wrong, and when (the time says which fault caused it)
  const clientErrors = [];
  // when each 502 came (only A's crash may cause one)
  const badGateways = [];
  const watch = (name, client) => {
    client.on("response", (status) => {
      if (status === 502) badGateways.push(Date.now());
    });
    client.on("connError", (err) => clientErrors.push(`${elapsed()} s ${name}: ${err.code ?? err.message}`));
    client.on("timeout", () => clientErrors.push(`${elapsed()} s ${name}: timeout`));
  };
  const load = ({ name, setupClient, ...options }) =>
    autocannon({
      ...options,
      duration: SECONDS,
      timeout: 20,
      setupClient: (client) => {
        watch(name, client);
        setupClient?.(client);
      },
    });
  const runs = Promise.all([
    load({
      name: "POST verifications",
      url: `${balancer.base}/api/sandbox/v1/verifications`,
      connections: 4,
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ providerId: "passport" }),
      setupClient: (client) =>
        client.on("body", (body) => {
          const id = /"verificationId":"([^"]+)"/.exec(body.toString("utf8"))?.[1];
          if (id) created.push(id);
        }),
    }),
    load({
      name: "GET app",
      url: `${balancer.base}/api/sandbox/v1/apps/${app.clientId}`,
      connections: 4,
      headers: { authorization: `Bearer ${key}` },
    }),
    load({
      name: "GET verification",
      url: `${balancer.base}/api/sandbox/v1/verifications/${seed.body.verificationId}`,
      connections: 4,
      headers: { authorization: auth },
    }),
  ]);
  // apps created with an Idempotency-Key, each sent again with the same key until it is answered
  // 201 (a 502 from the crash, or 409 IDEMPOTENCY_KEY_IN_USE while a dead instance's claim holds)
  const keyed = [];
  const loadEnds = Date.now() + SECONDS * 1000;
  const keyedCreations = Promise.all(
    [0, 1].map(async () => {
      while (Date.now() < loadEnds) {
        const entry = { key: randomUUID(), statuses: [] };
        keyed.push(entry);
        for (let tries = 0; tries < 90; tries++) {
          const res = await call(balancer.base, "POST", "/api/sandbox/v1/apps", {
            auth: `Bearer ${key}`,
            headers: { "idempotency-key": entry.key },
            body: { name: `keyed ${entry.key}` },
          });
          entry.statuses.push(res.status);
          if (res.status === 201) break;
          await sleep(1000);
        }
        await sleep(100);
      }
    }),
  );
  await sleep((SECONDS / 3) * 1000);
  log("A: SIGKILL");
  const killedAt = Date.now();
  await a.kill("SIGKILL");
  const restartingA = a.start().then(() => log("A: started again"));
  await sleep((SECONDS / 2 - SECONDS / 3) * 1000);
  log("B: SIGTERM (graceful stop)");
  const stopping = Date.now();
  await b.kill("SIGTERM");
  const exit = b.exitInfo();
  log(
    `B exited after ${((Date.now() - stopping) / 1000).toFixed(1)} s (code ${exit?.code}, signal ${exit?.signal})`,
  );
  if (exit?.code !== 0)
    problems.push(`B's graceful stop exited with code ${exit?.code} signal ${exit?.signal}`);
  await b.start();
  log("B: started again");
  await restartingA;
  const [posts, apps, reads] = await runs;
  await keyedCreations;

  console.log(
    `\nPOST verifications  ${posts.requests.total} requests, ${posts.requests.average.toFixed(0)} req/s, p99 ${posts.latency.p99} ms — ${format(statuses(posts))}`,
  );
  console.log(
    `GET app             ${apps.requests.total} requests, ${apps.requests.average.toFixed(0)} req/s, p99 ${apps.latency.p99} ms — ${format(statuses(apps))}`,
  );
  console.log(
    `GET verification    ${reads.requests.total} requests, ${reads.requests.average.toFixed(0)} req/s, p99 ${reads.latency.p99} ms — ${format(statuses(reads))}`,
  );
  if (clientErrors.length > 0) console.log(`client-side errors:\n  ${clientErrors.join("\n  ")}`);
  for (const [name, result, ok] of [
    ["GET app", apps, "200"],
    ["GET verification", reads, "200"],
  ]) {
    const failed = Object.entries(statuses(result)).filter(([code]) => code !== ok);
    if (failed.length > 0) problems.push(`${name}: ${format(Object.fromEntries(failed))}`);
  }
  // a POST that A had received is not sent elsewhere (nginx never resends a non-idempotent request):
  // its client gets 502 — requests A held, or sent on a keep-alive connection to A as it died
  const postFailures = Object.entries(statuses(posts)).filter(([code]) => code !== "201");
  const late = badGateways.filter((at) => at < killedAt || at > killedAt + 2_000);
  console.log(`502s: ${badGateways.map((at) => `${at - killedAt} ms`).join(", ") || "none"} after A's kill`);
  if (postFailures.some(([code]) => code !== "502") || late.length > 0)
    problems.push(
      `POST: ${format(Object.fromEntries(postFailures))}; ${late.length} 502s outside the 2 s after A's kill`,
    );

  // every session a client was told about exists, and its events reach the receiver
  const { rows } = await pool.query("SELECT id FROM verifications WHERE id = ANY($1)", [created]);
  const { rows: all } = await pool.query("SELECT count(*)::int AS n FROM verifications WHERE app_id = $1", [
    app.clientId,
  ]);
  // sessions whose 201 no client read: a POST that A committed before it died was answered 502
  // all the same (what an Idempotency-Key lets the client settle by sending it again), and the
  // POSTs still in flight when the load stopped were not waited for
  const unanswered = all[0].n - 1 - created.length;
  console.log(
    `\nsessions created (201 answers): ${created.length}; in the database: ${rows.length}; ` +
      `created with no 201 read (502s, and POSTs in flight at the end): ${unanswered}`,
  );
  if (rows.length !== created.length)
    problems.push(`${created.length - rows.length} sessions answered 201 are missing`);
  const delivered = await waitAllDelivered(pool, app.clientId, receiver, { timeoutMs: 120_000 });
  const settled = await settleDeliveries(pool, app.clientId, receiver);
  console.log(
    `webhook events: ${delivered.unique}/${delivered.events} received by the worker's deliveries (${delivered.requests} requests)`,
  );
  // the worker never stopped: no attempt was cut off, so no event may arrive twice
  if (settled.final.extraCopies > 0)
    problems.push(`${settled.final.extraCopies} events arrived more than once (no attempt was cut off)`);
  if (!delivered.complete) problems.push(`${delivered.missing.length} events never delivered`);
  const pending = settled.figures.byStatus.pending ?? 0;
  if (pending) problems.push(`${pending} deliveries still pending`);

  // every keyed creation answered 201 in the end, and created one app
  const retried = keyed.filter((e) => e.statuses.length > 1);
  const { rows: keyedApps } = await pool.query(
    "SELECT name, count(*)::int AS n FROM apps WHERE name = ANY($1) GROUP BY name",
    [keyed.map((e) => `keyed ${e.key}`)],
  );
  const byName = new Map(keyedApps.map((r) => [r.name, r.n]));
  const notOnce = keyed.filter((e) => byName.get(`keyed ${e.key}`) !== 1);
  const unanswered201 = keyed.filter((e) => e.statuses.at(-1) !== 201);
  console.log(
    `apps created with an Idempotency-Key: ${keyed.length}; sent again: ${retried.length} ` +
      `(${retried.map((e) => e.statuses.join("→")).join(", ") || "none"}); created more or less than once: ${notOnce.length}`,
  );
  if (notOnce.length > 0) problems.push(`${notOnce.length} keyed creations did not create exactly one app`);
  if (unanswered201.length > 0) problems.push(`${unanswered201.length} keyed creations never got their 201`);

  console.log("");
  problems.push(...(await acrossInstances(web, key, receiver)));

  for (const instance of [...web, worker]) {
    const ready = await fetch(`${instance.base}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready !== 200) problems.push(`${instance.label} /readyz ${ready}`);
  }
  if (problems.length > 0) {
    console.log(`\nFAIL:\n  ${problems.join("\n  ")}`);
    return false;
  }
  console.log(
    "\nPASS: behind nginx, a crash cost only the POSTs in flight on the crashed instance; a graceful stop cost nothing",
  );
  return true;
}

await runScript(main, { maxSeconds: MAX_SECONDS });
