// Webhook latency at a fixed session rate: sessions of one app (webhook → the receiver) are
// started at `rate` per second for `seconds` (open loop: one every 1000/rate ms, whatever the
// server's pace, at most `maxInFlight` at once — later starts are counted as skipped), each
// completed at once through the sandbox (POST /v1/verifications, then POST
// /v1/sandbox/verifications/{id}/simulate: 6 events). Latency of one event = its arrival at the
// receiver minus its state-change time (the payload's `timestamp`, written in the transaction
// that changed the state). Afterwards every event the database holds for the app is compared
// with what arrived, once every delivery has settled or after `drainSeconds`: an event that did
// not arrive is "pending" when its delivery is still queued (late), else lost (given up, or never
// queued); extra copies of an eventId are duplicates. Latencies are of each event's first copy.
import pg from "pg";
import { createSession, simulate } from "./flows.mjs";
import { log, quantile, sleep } from "./util.mjs";

export async function webhookPhase({
  base,
  app,
  receiver,
  databaseUrl,
  rate,
  seconds,
  maxInFlight = 100,
  drainSeconds = 30,
}) {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  let inFlight = 0;
  let skipped = 0;
  const failures = {};
  const sessions = [];
  const started = performance.now();
  const runs = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (inFlight >= maxInFlight) {
      skipped++;
      continue;
    }
    inFlight++;
    runs.push(
      (async () => {
        try {
          const created = await createSession(base, app);
          if (created.status !== 201) {
            failures[`create ${created.status}`] = (failures[`create ${created.status}`] ?? 0) + 1;
            return;
          }
          const id = created.body.verificationId;
          const done = await simulate(base, app, id);
          if (done.status !== 200) {
            failures[`simulate ${done.status}`] = (failures[`simulate ${done.status}`] ?? 0) + 1;
            return;
          }
          sessions.push(id);
        } finally {
          inFlight--;
        }
      })(),
    );
  }
  const issuedSeconds = (performance.now() - started) / 1000;
  await Promise.all(runs);
  const loadSeconds = (performance.now() - started) / 1000;
  log(
    `webhooks: ${sessions.length} sessions completed (${total} due at ${rate}/s over ${seconds} s, ` +
      `${skipped} skipped, issued in ${issuedSeconds.toFixed(1)} s, done in ${loadSeconds.toFixed(1)} s); waiting for deliveries`,
  );

  // every event of the app in the database, with its delivery's state, against what arrived
  const db = new pg.Client({ connectionString: databaseUrl, application_name: "bench-webhooks" });
  await db.connect();
  let events = [];
  let arrived = [];
  const until = Date.now() + drainSeconds * 1000;
  try {
    while (true) {
      ({ rows: events } = await db.query(
        `SELECT e.id, d.status FROM verification_events e
           LEFT JOIN webhook_deliveries d ON d.event_id = e.id
          WHERE e.app_id = $1`,
        [app.clientId],
      ));
      arrived = await receiver.ask("records", { clientId: app.clientId });
      const got = new Set(arrived.map((r) => r.eventId));
      if (events.every((e) => got.has(e.id) && e.status !== "pending") || Date.now() > until) break;
      await sleep(500);
    }
  } finally {
    await db.end();
  }
  const counts = new Map();
  for (const r of arrived) counts.set(r.eventId, (counts.get(r.eventId) ?? 0) + 1);
  // not arrived: still queued after the drain time (late), or given up / never queued (lost)
  const missing = events.filter((e) => !counts.has(e.id));
  const pending = missing.filter((e) => e.status === "pending").length;
  const lost = missing.length - pending;
  const duplicated = [...counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  // first arrival of each event
  const first = new Map();
  for (const r of arrived)
    if (!first.has(r.eventId) || r.at < first.get(r.eventId).at) first.set(r.eventId, r);
  const latencies = [...first.values()]
    .filter((r) => Number.isFinite(r.timestamp))
    .map((r) => r.at - r.timestamp);
  return {
    rate,
    seconds,
    sessionsDue: total,
    sessionsCompleted: sessions.length,
    sessionsSkipped: skipped,
    sessionFailures: failures,
    achievedRate: sessions.length / loadSeconds,
    events: events.length,
    received: first.size,
    lost,
    pending,
    drainSeconds,
    duplicated,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: quantile(latencies, 1),
  };
}
