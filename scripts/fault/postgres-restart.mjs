// Part 2 of scripts/fault-kill.mjs (docs/reliability.md): PostgreSQL stopped and started again
// under API load, once per mode (fast = SIGINT, clients disconnected; immediate = SIGQUIT, crash
// recovery at start); the server is not touched. Passes when no request got a 500, none hung, the
// 503s carry Retry-After, requests succeed again within seconds of PostgreSQL's return, the
// server process is the same one, and the events emitted around the outages are all delivered.
// A wedged server is diagnosed, then restarted to check that its undelivered events are not
// lost. Test tooling.
import { basicAuth, call } from "../support/http.mjs";
import { log, sleep } from "./run.mjs";
import { completedSession, createApp } from "./rest-api.mjs";
import { diagnose } from "./service.mjs";
import { formatStatus, settleDeliveries, waitAllDelivered } from "./webhooks.mjs";

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

export async function postgresRestart({
  server,
  pool,
  key,
  receiver,
  db,
  database,
  loadWorkers,
  outageSeconds,
  hangMs,
  pgModes,
}) {
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
        timeoutMs: hangMs,
      }),
    () =>
      call(server.base, "GET", `/api/sandbox/v1/apps/${app.clientId}`, { auth: bearer, timeoutMs: hangMs }),
    () =>
      call(server.base, "POST", "/api/sandbox/v1/verifications", {
        auth,
        body: { providerId: "passport" },
        timeoutMs: hangMs,
      }),
    () => call(server.base, "GET", "/api/sandbox/v1/providers", { auth, timeoutMs: hangMs }),
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
  for (const mode of pgModes) {
    records.length = 0;
    phaseStart = performance.now();
    loadOn = true;
    const workers = Array.from({ length: loadWorkers }, (_, w) => worker(w));
    await sleep(3000);
    const stopAt = now();
    log(`round ${mode}: stopping PostgreSQL (${mode} shutdown) under ${loadWorkers} concurrent clients`);
    await db.stop(mode);
    const downAt = now();
    await sleep(outageSeconds * 1000);
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
      problems.push(`${mode}: ${hangs} requests got no answer within ${hangMs} ms`);
      await diagnose(server, pool, database);
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
