// Proof under faults (2): two production servers on one database under the benchmark's load
// (docs/reliability.md). Usage: npm run build && npm run fault:two-instances
// Two `idv serve` processes (ports FAULT_PORT and FAULT_PORT+1, default 3320/3321) share one
// DATABASE_URL (a dedicated embedded PostgreSQL under .data/fault-two-pg, or DATABASE_URL when
// set) and both run the job worker. The script then
//   1. runs the benchmark's four scenarios (scripts/bench.mjs) against both at once, sessions
//      expiring after IDV_SESSION_TTL_SECONDS=20 so that expiry jobs run during the test;
//   2. completes FAULT_SESSIONS sessions created on one instance and simulated on the other,
//      has the end-user's browser ask BOTH instances for the return at the same moment
//      (GET /verify/{id}/return with the browser's binding cookie: answered once, with the
//      session's one code), and redeems every code on both instances at the same moment;
//   3. waits for every session to end and every event to reach the webhook receiver.
// Passes when: each return is answered by exactly one instance; every code is distinct and
// redeemed exactly once (one 200, the other 401
// invalid_grant, a later retry 401); every event reached the receiver, with duplicates (if any)
// explained by a recorded retry; each delivery has one successful attempt; each expired session
// has one timed_out event; each cron tick was queued once although both instances schedule it;
// no job failed; one signing key per algorithm. Bounded in time (FAULT_MAX_SECONDS, default 420);
// stops everything it started.
import path from "node:path";
import autocannon from "autocannon";
import { startPostgres, sqlPool } from "./fault/postgres.mjs";
import { completedSession, createApp } from "./fault/rest-api.mjs";
import { envNumber, log, ROOT, runScript, sleep } from "./fault/run.mjs";
import { createWorkspace, requireBuild, serviceEnv, serviceProcess } from "./fault/service.mjs";
import { formatStatus, settleDeliveries, startReceiver, waitAllDelivered } from "./fault/webhooks.mjs";
import { basicAuth, call } from "./support/http.mjs";

const PORT_A = envNumber("FAULT_PORT", 3320);
const PORT_B = PORT_A + 1;
const RECEIVER_PORT = PORT_A + 2;
const PG_PORT = envNumber("FAULT_PG_PORT", 54520);
const BENCH_SECONDS = envNumber("BENCH_SECONDS", 5);
const SESSIONS = envNumber("FAULT_SESSIONS", 30);
const TTL_SECONDS = 20;
const MAX_SECONDS = envNumber("FAULT_MAX_SECONDS", 420);
const DATABASE = "idv_fault_two";
const CRON_EVERY_MINUTE = ["webhook_sweep", "custom_domain_recheck", "verification_expiry_sweep"];

/** Records every job queued and every job completed (graphile-worker deletes completed jobs). */
const JOB_LOG_SQL = `
CREATE TABLE IF NOT EXISTS fault_job_log (
  op text NOT NULL, job_id bigint NOT NULL, task text, key text, attempts int, locked_by text,
  run_at timestamptz, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE OR REPLACE FUNCTION fault_job_log_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fault_job_log (op, job_id, task, key, attempts, locked_by, run_at)
    SELECT 'queued', NEW.id, t.identifier, NEW.key, NEW.attempts, NEW.locked_by, NEW.run_at
      FROM graphile_worker._private_tasks t WHERE t.id = NEW.task_id;
    RETURN NEW;
  END IF;
  INSERT INTO fault_job_log (op, job_id, task, key, attempts, locked_by, run_at)
  SELECT 'completed', OLD.id, t.identifier, OLD.key, OLD.attempts, OLD.locked_by, OLD.run_at
    FROM graphile_worker._private_tasks t WHERE t.id = OLD.task_id;
  RETURN OLD;
END $$;
DROP TRIGGER IF EXISTS fault_job_log_trigger ON graphile_worker._private_jobs;
CREATE TRIGGER fault_job_log_trigger AFTER INSERT OR DELETE ON graphile_worker._private_jobs
  FOR EACH ROW EXECUTE FUNCTION fault_job_log_fn();`;

const decodeJwt = (jwt) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));

async function main() {
  requireBuild();
  const db = await startPostgres({ name: "fault-two-pg", port: PG_PORT, database: DATABASE });
  const env = serviceEnv(db.url, {
    // one public address for both, as behind a load balancer
    PUBLIC_URL: `http://localhost:${PORT_A}`,
    IDV_SESSION_TTL_SECONDS: String(TTL_SECONDS),
  });
  const a = serviceProcess({
    label: "A",
    port: PORT_A,
    env,
    logFile: path.join(ROOT, ".data", "fault-two-A.log"),
  });
  const b = serviceProcess({
    label: "B",
    port: PORT_B,
    env,
    logFile: path.join(ROOT, ".data", "fault-two-B.log"),
  });
  // one after the other: both apply migrations at start-up (the second finds nothing to do)
  await a.start();
  const pool = sqlPool(db.url);
  await pool.query(JOB_LOG_SQL);
  await b.start();
  log(`instances A ${a.base} and B ${b.base} on one database, both running the job worker`);
  const key = await createWorkspace(db.url, env.IDV_MASTER_KEY);
  const receiver = await startReceiver({ port: RECEIVER_PORT, delayMs: 50 });
  const returnUrl = `${receiver.base}/return`;
  const app = await createApp(a.base, key, { webhookUrl: receiver.url, redirectUris: [returnUrl] });
  const auth = basicAuth(app.clientId, app.clientSecret);
  const problems = [];

  // 1. the benchmark's load, spread over both instances
  console.log(
    `\n=== 1. Benchmark load on both instances (${BENCH_SECONDS} s per scenario, 5 connections each) ===`,
  );
  const seed = await call(a.base, "POST", "/api/sandbox/v1/verifications", {
    auth,
    body: { providerId: "passport" },
  });
  const scenarios = [
    { name: "GET app (Bearer)", path: `/api/sandbox/v1/apps/${app.clientId}`, auth: `Bearer ${key}` },
    { name: "GET providers (Basic)", path: "/api/sandbox/v1/providers", auth },
    {
      name: "POST verification",
      path: "/api/sandbox/v1/verifications",
      auth,
      method: "POST",
      body: JSON.stringify({ providerId: "passport" }),
    },
    { name: "GET verification", path: `/api/sandbox/v1/verifications/${seed.body.verificationId}`, auth },
  ];
  for (const s of scenarios) {
    const results = await Promise.all(
      [a, b].map((instance) =>
        autocannon({
          url: `${instance.base}${s.path}`,
          connections: 5,
          duration: BENCH_SECONDS,
          method: s.method ?? "GET",
          headers: { authorization: s.auth, ...(s.body ? { "content-type": "application/json" } : {}) },
          ...(s.body ? { body: s.body } : {}),
        }),
      ),
    );
    const line = results
      .map(
        (r, i) =>
          `${"AB"[i]} ${r.requests.average.toFixed(0).padStart(5)} req/s p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms errors ${r.errors} non-2xx ${r.non2xx}`,
      )
      .join("  |  ");
    console.log(`${s.name.padEnd(22)} ${line}`);
    for (const [i, r] of results.entries())
      if (r.errors || r.non2xx)
        problems.push(`${s.name} on ${"AB"[i]}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  }

  // 2. codes minted on both instances at once, redeemed on both at once
  console.log(
    `\n=== 2. Authorization codes: ${SESSIONS} sessions, codes minted and redeemed on both instances ===`,
  );
  const codes = [];
  const sessionIds = [];
  let returnsAnsweredOnce = 0;
  await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      for (let i = w; i < SESSIONS; i += 4) {
        const [first, second] = i % 2 ? [b, a] : [a, b];
        const s = await completedSession(first.base, app, {
          simulateBase: second.base,
          redirectUri: returnUrl,
          bind: true,
        });
        if (!s.ok) {
          problems.push(`session ${i}: ${s.step} answered ${s.status}`);
          continue;
        }
        sessionIds.push(s.id);
        const returns = await Promise.all(
          [a, b].map((x) =>
            call(x.base, "GET", `/verify/${s.id}/return`, { cookie: s.cookie, followRedirects: false }),
          ),
        );
        const answered = [];
        for (const [j, r] of returns.entries()) {
          const location = r.headers?.get("location");
          const code = location ? new URL(location, a.base).searchParams.get("code") : null;
          if (r.status !== 303) problems.push(`return on ${"AB"[j]} gave ${r.status}`);
          else if (code) answered.push({ code, verificationId: s.id, mintedOn: "AB"[j] });
        }
        if (answered.length === 1) returnsAnsweredOnce++;
        else problems.push(`session ${s.id}: the return was answered with a code ${answered.length} times`);
        codes.push(...answered);
      }
    }),
  );
  const distinct = new Set(codes.map((c) => c.code)).size;
  const redeemOutcomes = { onePair: 0, bothOk: 0, noneOk: 0, retryRefused: 0, wrongToken: 0 };
  const winners = { A: 0, B: 0 };
  await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      for (let i = w; i < codes.length; i += 4) {
        const c = codes[i];
        const form = { grant_type: "authorization_code", code: c.code };
        const answers = await Promise.all(
          [a, b].map((x) => call(x.base, "POST", "/api/sandbox/token", { auth, form })),
        );
        const ok = answers.filter((r) => r.status === 200);
        const refused = answers.filter((r) => r.status === 401 && r.body?.error === "invalid_grant");
        if (ok.length === 1 && refused.length === 1) redeemOutcomes.onePair++;
        else if (ok.length === 2) redeemOutcomes.bothOk++;
        else redeemOutcomes.noneOk++;
        if (ok.length) {
          winners["AB"[answers.indexOf(ok[0])]]++;
          const claims = decodeJwt(ok[0].body.id_token);
          if (claims.verification_id !== c.verificationId) redeemOutcomes.wrongToken++;
        }
        const retry = await call((i % 2 ? a : b).base, "POST", "/api/sandbox/token", { auth, form });
        if (retry.status === 401 && retry.body?.error === "invalid_grant") redeemOutcomes.retryRefused++;
      }
    }),
  );
  console.log(
    `sessions completed             ${sessionIds.length} (created on one instance, simulated on the other)`,
  );
  console.log(
    `returns answered once          ${returnsAnsweredOnce}/${sessionIds.length} (asked of A and B at the same moment)`,
  );
  console.log(`codes minted                   ${codes.length}`);
  console.log(`distinct codes                 ${distinct}`);
  console.log(
    `redeemed on A and B at once    ${redeemOutcomes.onePair} exactly one 200 + one 401 invalid_grant; ${redeemOutcomes.bothOk} both 200; ${redeemOutcomes.noneOk} neither`,
  );
  console.log(`race won by                    A ${winners.A}, B ${winners.B}`);
  console.log(
    `retry after redemption         ${redeemOutcomes.retryRefused}/${codes.length} refused (401 invalid_grant)`,
  );
  if (distinct !== codes.length) problems.push(`${codes.length - distinct} duplicate authorization codes`);
  if (codes.length !== SESSIONS) problems.push(`${codes.length} codes minted instead of ${SESSIONS}`);
  if (redeemOutcomes.bothOk) problems.push(`${redeemOutcomes.bothOk} codes were redeemed twice`);
  if (redeemOutcomes.noneOk)
    problems.push(`${redeemOutcomes.noneOk} codes were redeemed by neither instance`);
  if (redeemOutcomes.retryRefused !== codes.length) problems.push("a redeemed code was accepted again");
  if (redeemOutcomes.wrongToken)
    problems.push(`${redeemOutcomes.wrongToken} ID tokens name another verification`);

  // 3. every session ends (expiry jobs), every event is delivered, every job ran once
  console.log("\n=== 3. Sessions expire, events are delivered, jobs run once ===");
  const until = Date.now() + (TTL_SECONDS + 90) * 1000;
  let open = -1;
  while (Date.now() < until) {
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM verifications WHERE app_id = $1 AND status NOT IN ('completed','failed','cancelled','expired')",
      [app.clientId],
    );
    open = rows[0].n;
    if (open === 0) break;
    await sleep(2000);
  }
  log(`sessions still open: ${open}`);
  if (open) problems.push(`${open} sessions did not expire`);
  const delivered = await waitAllDelivered(pool, app.clientId, receiver, { timeoutMs: 150_000 });
  const { figures, final } = await settleDeliveries(pool, app.clientId, receiver);
  // two cron ticks at least, so that both instances had the chance to schedule the same minute
  // twice: up to two minute boundaries from here (the earlier parts may end in well under a minute)
  const cronUntil = Date.now() + 130_000;
  let announced = false;
  while (Date.now() < cronUntil) {
    const { rows } = await pool.query(
      "SELECT count(DISTINCT date_trunc('minute', run_at))::int AS n FROM fault_job_log WHERE op = 'queued' AND task = 'webhook_sweep'",
    );
    if (rows[0].n >= 2) break;
    if (!announced) log("waiting for a second cron tick (minute boundary)");
    announced = true;
    await sleep(2000);
  }

  const { rows: sessions } = await pool.query(
    `SELECT v.status, count(*)::int AS sessions,
            sum((SELECT count(*) FROM verification_events e WHERE e.verification_id = v.id AND e.type = 'verification.session.timed_out'))::int AS timed_out,
            sum((SELECT count(*) FROM verification_events e WHERE e.verification_id = v.id AND e.type = 'verification.completed'))::int AS completed,
            max((SELECT count(*) FROM verification_events e WHERE e.verification_id = v.id AND e.type IN ('verification.session.timed_out','verification.completed')))::int AS max_final
       FROM verifications v WHERE v.app_id = $1 GROUP BY v.status ORDER BY v.status`,
    [app.clientId],
  );
  const { rows: cron } = await pool.query(
    `SELECT task, count(*)::int AS ticks, count(DISTINCT date_trunc('minute', run_at))::int AS minutes
       FROM fault_job_log WHERE op = 'queued' AND task = ANY($1) GROUP BY task ORDER BY task`,
    [CRON_EVERY_MINUTE],
  );
  const { rows: jobs } = await pool.query(
    `SELECT task, count(*) FILTER (WHERE op = 'queued')::int AS queued, count(*) FILTER (WHERE op = 'completed')::int AS completed,
            count(*) FILTER (WHERE op = 'completed' AND attempts > 1)::int AS retried,
            count(DISTINCT locked_by) FILTER (WHERE op = 'completed')::int AS workers
       FROM fault_job_log GROUP BY task ORDER BY task`,
  );
  const { rows: failed } = await pool.query(
    `SELECT t.identifier AS task, count(*)::int AS n, max(j.last_error) AS error
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.last_error IS NOT NULL GROUP BY 1`,
  );
  const { rows: keys } = await pool.query(
    "SELECT environment::text, alg, count(*)::int AS n FROM signing_keys WHERE retired_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2",
  );
  const { rows: attemptNumbers } = await pool.query(
    `SELECT count(*)::int AS n FROM (SELECT a.delivery_id, a.attempt_number FROM webhook_delivery_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.app_id = $1 GROUP BY 1, 2 HAVING count(*) > 1) s`,
    [app.clientId],
  );
  const { rows: retried } = await pool.query(
    "SELECT count(*)::int AS n FROM webhook_deliveries WHERE app_id = $1 AND attempt_count > 1",
    [app.clientId],
  );

  console.log("sessions by status:");
  for (const s of sessions)
    console.log(
      `  ${s.status.padEnd(10)} ${String(s.sessions).padStart(5)} sessions, ${s.timed_out} timed_out events, ${s.completed} completed events, at most ${s.max_final} final event per session`,
    );
  console.log(
    `webhooks: ${final.events} events, ${final.requests} requests, ${final.unique} unique, lost ${final.missing.length}, received twice ${final.duplicated.length} (deliveries with a retry: ${retried[0].n})`,
  );
  console.log(
    `deliveries by status: ${formatStatus(figures.byStatus)}; attempts ${figures.attempts} (${figures.failed} failed); deliveries with two successful attempts ${figures.deliveriesSucceededTwice}; attempt numbers used twice ${attemptNumbers[0].n}`,
  );
  console.log("jobs (queued / completed / completed after a retry / distinct workers that completed them):");
  for (const j of jobs)
    console.log(`  ${j.task.padEnd(26)} ${j.queued} / ${j.completed} / ${j.retried} / ${j.workers}`);
  for (const c of cron) console.log(`cron ${c.task}: ${c.ticks} jobs queued over ${c.minutes} minute ticks`);
  console.log(`jobs that failed: ${failed.length ? JSON.stringify(failed) : "none"}`);
  console.log(`active signing keys: ${keys.map((k) => `${k.environment}/${k.alg} ${k.n}`).join(", ")}`);

  if (!delivered.complete || final.missing.length)
    problems.push(`${final.missing.length} events were not delivered`);
  if (final.unknown.length) problems.push(`${final.unknown.length} unknown event ids received`);
  if (final.extraCopies > retried[0].n) problems.push("events received twice without a recorded retry");
  if (figures.deliveriesSucceededTwice) problems.push("deliveries with two successful attempts");
  if (attemptNumbers[0].n) problems.push("attempt numbers recorded twice");
  if (figures.byStatus.dead || figures.byStatus.pending) problems.push("deliveries dead or still pending");
  if (sessions.some((s) => s.max_final > 1)) problems.push("a session has two final events");
  const expired = sessions.find((s) => s.status === "expired");
  if (expired && expired.timed_out !== expired.sessions)
    problems.push("expired sessions without exactly one timed_out");
  for (const c of cron)
    if (c.ticks !== c.minutes) problems.push(`cron ${c.task} queued ${c.ticks} jobs over ${c.minutes} ticks`);
  if (!cron.some((c) => c.minutes >= 2)) problems.push("fewer than two cron ticks observed");
  for (const j of jobs) if (j.retried) problems.push(`${j.retried} ${j.task} jobs ran more than once`);
  if (failed.length) problems.push(`failed jobs: ${failed.map((f) => f.task).join(", ")}`);
  if (keys.some((k) => k.n !== 1)) problems.push("more than one active signing key per algorithm");
  if (!a.running() || !b.running()) problems.push("an instance stopped");

  for (const p of problems) console.log(`FAIL: ${p}`);
  if (!problems.length)
    console.log("OK: two instances, one database: nothing done twice beyond at-least-once delivery");
  return problems.length === 0;
}

await runScript(main, { maxSeconds: MAX_SECONDS });
