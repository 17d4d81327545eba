// Part 1 of scripts/fault-kill.mjs (docs/reliability.md): the production server killed with SIGKILL
// in the middle of webhook deliveries, restarted after each kill. Passes when every event in the
// database reached the receiver at least once (duplicates are counted and matched against the
// requests cut off by a kill) and every delivery the dead server held under its lease was sent
// again once the lease ran out. Test tooling.
import { log, sleep } from "./run.mjs";
import { completedSession, createApp } from "./rest-api.mjs";
import { formatStatus, settleDeliveries, waitAllDelivered } from "./webhooks.mjs";

/**
 * The app's delivery queue as it stands (the delivery rows are the queue, lib/webhooks/
 * dispatch/queue.ts): the deliveries by status and, of the pending ones, those queued and due,
 * queued for a later retry, under a live lease (being sent: by the server just killed, they wait
 * for the lease to run out, then the sweeper re-queues them), and those neither queued nor held
 * (their lease ran out: the sweeper re-queues them).
 */
async function deliveryQueue(pool, appId) {
  const { rows } = await pool.query(
    `SELECT id, status,
            (status = 'pending' AND queued_trigger IS NOT NULL AND next_attempt_at <= (now() AT TIME ZONE 'UTC')) AS due,
            (status = 'pending' AND queued_trigger IS NOT NULL AND next_attempt_at > (now() AT TIME ZONE 'UTC')) AS later,
            (status = 'pending' AND queued_trigger IS NULL AND lease_until > (now() AT TIME ZONE 'UTC')) AS leased
       FROM webhook_deliveries WHERE app_id = $1`,
    [appId],
  );
  const byStatus = {};
  for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const leasedIds = rows.filter((r) => r.leased).map((r) => r.id);
  const due = rows.filter((r) => r.due).length;
  const later = rows.filter((r) => r.later).length;
  const unheld = (byStatus.pending ?? 0) - due - later - leasedIds.length;
  return {
    leasedIds,
    text:
      `deliveries ${formatStatus(byStatus)}; pending: ${due} queued and due, ${later} queued for a retry, ` +
      `${leasedIds.length} under the dead server's lease, ${unheld} on no queue and held by nobody`,
  };
}

export async function killMidDelivery({ server, pool, key, receiver, sessions, killCount, receiverDelayMs }) {
  console.log("\n=== Part 1: SIGKILL of the server while webhooks are being delivered ===");
  receiver.setDelay(receiverDelayMs);
  const app = await createApp(server.base, key, { webhookUrl: receiver.url });
  log(`app ${app.clientId}; receiver answers after ${receiverDelayMs} ms`);

  const sessionStats = { completed: 0, failed: 0 };
  const runBatch = async (n) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < n) {
          next++;
          const r = await completedSession(server.base, app);
          if (r.ok) sessionStats.completed++;
          else sessionStats.failed++;
        }
      }),
    );
  };
  await runBatch(sessions);
  log(`${sessionStats.completed} sessions completed (6 events each); deliveries under way`);

  // a trickle of sessions continues through the kills: some of them are cut off mid-request
  let loadOn = true;
  const trickle = (async () => {
    while (loadOn) {
      const r = await completedSession(server.base, app);
      if (r.ok) sessionStats.completed++;
      else {
        sessionStats.failed++;
        await sleep(500);
      }
      await sleep(200);
    }
  })();

  const cutOff = new Set();
  // deliveries under the lease of the server at the moment it was killed
  const heldByDead = new Set();
  const kills = [];
  for (let k = 1; k <= killCount; k++) {
    const seenBefore = receiver.requests.length;
    const until = Date.now() + 60_000;
    while (!(receiver.inFlight() >= 2 && receiver.requests.length >= seenBefore + 3) && Date.now() < until)
      await sleep(50);
    const inFlight = receiver.requests.filter((r) => !r.answered && !r.aborted);
    for (const r of inFlight) cutOff.add(r.eventId);
    log(
      `kill ${k}: SIGKILL to the server process group, ${inFlight.length} deliveries in flight at the receiver`,
    );
    await server.kill("SIGKILL");
    const queue = await deliveryQueue(pool, app.clientId);
    for (const id of queue.leasedIds) heldByDead.add(id);
    log(`        after the kill: ${queue.text}`);
    const restartAt = Date.now();
    await server.start();
    const restartSeconds = (Date.now() - restartAt) / 1000;
    log(`        restarted in ${restartSeconds.toFixed(1)} s (migrations + next start)`);
    kills.push({ inFlight: inFlight.length, restartSeconds });
  }
  await sleep(5000);
  loadOn = false;
  await trickle;
  const lastRestart = Date.now();
  log(
    `load stopped: ${sessionStats.completed} sessions completed, ${sessionStats.failed} requests cut off or failed by the kills`,
  );

  const result = await waitAllDelivered(pool, app.clientId, receiver, {
    timeoutMs: 180_000,
    label: "part 1 ",
  });
  const recoverySeconds = (Date.now() - lastRestart) / 1000;
  const { figures, final } = await settleDeliveries(pool, app.clientId, receiver);
  const explained = final.duplicated.filter(([id]) => cutOff.has(id)).length;
  const aborted = receiver.requests.filter((r) => r.clientId === app.clientId && r.aborted).length;
  const { rows: held } = await pool.query(
    "SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1::text[]) GROUP BY status",
    [[...heldByDead]],
  );
  const heldByStatus = Object.fromEntries(held.map((r) => [r.status, r.n]));
  // graphile-worker frees a dead worker's locks after 4 hours only; our sweeper does not wait for it
  const { rows: stale } = await pool.query(
    `SELECT t.identifier AS task, count(*)::int AS n
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.locked_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
  console.log("\n--- Part 1 figures ---");
  console.log(
    `kills                          ${kills.length} (in flight at each: ${kills.map((k) => k.inFlight).join(", ")})`,
  );
  console.log(
    `restart time                   ${kills.map((k) => `${k.restartSeconds.toFixed(1)} s`).join(", ")}`,
  );
  console.log(
    `sessions completed             ${sessionStats.completed} (${sessionStats.failed} API calls failed: cut off by a kill or sent while the server was down)`,
  );
  console.log(`events emitted (database)      ${final.events}`);
  console.log(
    `webhook requests received      ${final.requests} (${aborted} cut off: the sender died before the answer)`,
  );
  console.log(`unique event ids received      ${final.unique}`);
  console.log(`events never received (lost)   ${final.missing.length}`);
  console.log(`unknown event ids              ${final.unknown.length}`);
  console.log(
    `events received more than once ${final.duplicated.length} (${final.extraCopies} extra copies; ${explained} of these events were in flight at a kill)`,
  );
  console.log(`deliveries by status           ${formatStatus(figures.byStatus)}`);
  console.log(
    `attempts recorded              ${figures.attempts} (${figures.successful} successful, ${figures.failed} failed; deliveries with 2 successes: ${figures.deliveriesSucceededTwice})`,
  );
  console.log(
    `held by a killed server        ${heldByDead.size} deliveries under its lease at a kill, now: ${formatStatus(heldByStatus)}`,
  );
  console.log(`all delivered after            ${recoverySeconds.toFixed(0)} s from the last restart`);
  console.log(
    `jobs still locked by the dead workers: ${stale.map((r) => `${r.task} ${r.n}`).join(", ") || "none"} (graphile-worker frees them after 4 h)`,
  );

  const problems = [];
  if (!result.complete) problems.push(`${result.missing.length} events were not delivered within 180 s`);
  if (final.unknown.length) problems.push(`${final.unknown.length} unknown event ids received`);
  if (figures.byStatus.dead) problems.push(`${figures.byStatus.dead} deliveries are dead`);
  if (figures.byStatus.pending) problems.push(`${figures.byStatus.pending} deliveries still pending`);
  const heldNotSent = heldByDead.size - (heldByStatus.succeeded ?? 0);
  if (heldNotSent) problems.push(`${heldNotSent} deliveries held by a killed server were not sent again`);
  if (sessionStats.completed === 0) problems.push("no session completed");
  for (const p of problems) console.log(`FAIL: ${p}`);
  if (!problems.length)
    console.log(
      "OK: every event emitted was delivered at least once; duplicates are deduplicable by eventId",
    );
  return problems.length === 0;
}
