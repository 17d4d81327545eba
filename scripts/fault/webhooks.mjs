// The webhook side of a fault-injection script: a receiver on 127.0.0.1 that plays a (slow)
// integrator and keeps every request, and the comparison of what it received with the events and
// deliveries the database holds. Test tooling.
import http from "node:http";
import { onCleanup } from "../support/cleanup.mjs";
import { log, sleep } from "./run.mjs";

/**
 * A webhook receiver on 127.0.0.1 that answers 204 after `delayMs` (a slow integrator). It keeps
 * every request: event id, delivery id, attempt number, whether it was answered or the sender
 * went away first.
 */
export async function startReceiver({ port, delayMs = 0 }) {
  const requests = [];
  const state = { delayMs };
  const server = http.createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(200, { "content-type": "text/plain" }).end("integrator");
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let event = {};
      try {
        event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // counted with an undefined eventId
      }
      const rec = {
        eventId: event.eventId,
        clientId: event.clientId,
        type: event.event,
        verificationId: event.data?.verificationId,
        deliveryId: req.headers["x-service-delivery"],
        attempt: Number(req.headers["x-service-attempt"]),
        at: Date.now(),
        answered: false,
        aborted: false,
      };
      requests.push(rec);
      const timer = setTimeout(() => {
        rec.answered = true;
        res.writeHead(204).end();
      }, state.delayMs);
      res.on("close", () => {
        if (!rec.answered) {
          rec.aborted = true;
          clearTimeout(timer);
        }
      });
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  onCleanup(() => new Promise((resolve) => server.close(() => resolve())));
  server.closeIdleConnections?.();
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    base: `http://127.0.0.1:${port}`,
    requests,
    setDelay: (ms) => (state.delayMs = ms),
    inFlight: () => requests.filter((r) => !r.answered && !r.aborted).length,
    close: () => {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Receiver requests against the events the database holds for the app. */
export function compareDeliveries(dbEventIds, requests) {
  const received = new Map();
  for (const r of requests) received.set(r.eventId, (received.get(r.eventId) ?? 0) + 1);
  const expected = new Set(dbEventIds);
  const missing = dbEventIds.filter((id) => !received.has(id));
  const unknown = [...received.keys()].filter((id) => !expected.has(id));
  const duplicated = [...received.entries()].filter(([, n]) => n > 1);
  return {
    events: dbEventIds.length,
    requests: requests.length,
    unique: received.size,
    missing,
    unknown,
    duplicated,
    extraCopies: duplicated.reduce((sum, [, n]) => sum + n - 1, 0),
  };
}

/**
 * Polls until every event of the app in the database (of `types` when given) was received at
 * least once.
 */
export async function waitAllDelivered(pool, appId, receiver, { timeoutMs, label = "", types }) {
  const until = Date.now() + timeoutMs;
  let lastReport = 0;
  let cmp;
  while (true) {
    const { rows } = await pool
      .query(
        "SELECT id FROM verification_events WHERE app_id = $1 AND ($2::text[] IS NULL OR type = ANY($2))",
        [appId, types ?? null],
      )
      .catch(() => ({ rows: undefined }));
    if (rows) {
      cmp = compareDeliveries(
        rows.map((r) => r.id),
        receiver.requests.filter((r) => r.clientId === appId),
      );
      if (cmp.missing.length === 0) return { ...cmp, complete: true };
    }
    if (Date.now() > until) return { ...cmp, complete: false };
    if (Date.now() - lastReport > 10_000 && cmp) {
      lastReport = Date.now();
      log(`${label}waiting: ${cmp.unique}/${cmp.events} events received, ${cmp.requests} requests`);
    }
    await sleep(1000);
  }
}

/**
 * After every event arrived once: waits (up to 30 s) until no delivery of the app is pending —
 * the receiver gets a request before the database records its success, and re-sent copies may
 * still be on their way — then compares once more.
 */
export async function settleDeliveries(pool, appId, receiver, { types } = {}) {
  let figures;
  for (let i = 0; i < 30; i++) {
    figures = await deliveryFigures(pool, appId);
    if (!figures.byStatus.pending) break;
    await sleep(1000);
  }
  const { rows } = await pool.query(
    "SELECT id FROM verification_events WHERE app_id = $1 AND ($2::text[] IS NULL OR type = ANY($2))",
    [appId, types ?? null],
  );
  return {
    figures,
    final: compareDeliveries(
      rows.map((r) => r.id),
      receiver.requests.filter((r) => r.clientId === appId),
    ),
  };
}

/** Delivery rows and attempts of an app, by status. */
export async function deliveryFigures(pool, appId) {
  const { rows: byStatus } = await pool.query(
    "SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE app_id = $1 GROUP BY status ORDER BY status",
    [appId],
  );
  const { rows: attempts } = await pool.query(
    `SELECT count(*)::int AS attempts,
            count(*) FILTER (WHERE a.success)::int AS successful,
            count(DISTINCT a.delivery_id)::int AS deliveries,
            count(*) FILTER (WHERE NOT a.success)::int AS failed
       FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE d.app_id = $1`,
    [appId],
  );
  const { rows: twice } = await pool.query(
    `SELECT count(*)::int AS n FROM (
       SELECT a.delivery_id FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.app_id = $1 AND a.success GROUP BY a.delivery_id HAVING count(*) > 1) s`,
    [appId],
  );
  return {
    byStatus: Object.fromEntries(byStatus.map((r) => [r.status, r.n])),
    ...attempts[0],
    deliveriesSucceededTwice: twice[0].n,
  };
}

export function formatStatus(byStatus) {
  return (
    Object.entries(byStatus)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ") || "none"
  );
}
