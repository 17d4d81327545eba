// One load row: autocannon with 10 connections against one address, after a short warm-up, for a
// fixed time or — for the token rows — over a fixed list of one-time codes (autocannon's
// setupRequest gives each request its own code).
import autocannon from "autocannon";

export const CONNECTIONS = 10;

function figures(result) {
  const seconds = result.duration || (new Date(result.finish) - new Date(result.start)) / 1000;
  return {
    requests: result.requests.total,
    seconds: Math.round(seconds * 100) / 100,
    rps: seconds > 0 ? result.requests.total / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    errors: result.non2xx + result.errors,
    statusCodes: result.statusCodeStats,
  };
}

/** A duration-based row: `seconds` of load after `warmupSeconds` of warm-up (not counted). */
export async function timedRow({ url, method = "GET", headers = {}, body, seconds, warmupSeconds = 1 }) {
  const options = {
    url,
    method,
    headers,
    connections: CONNECTIONS,
    duration: seconds,
    ...(body !== undefined ? { body } : {}),
  };
  if (warmupSeconds > 0) await autocannon({ ...options, duration: warmupSeconds });
  return figures(await autocannon(options));
}

/**
 * A row over one-time values: each request takes the next form body from `bodies` (one per code).
 * autocannon prepares each connection's next request when the previous answer arrives, so up to
 * one body per connection is prepared and never sent: the row sends `bodies.length - CONNECTIONS`
 * requests. No warm-up (a warm-up would spend codes); the timed rows before it warm the server.
 */
export async function codesRow({ url, headers = {}, bodies }) {
  const amount = bodies.length - CONNECTIONS;
  if (amount < CONNECTIONS) return { skipped: `only ${bodies.length} codes minted` };
  let next = 0;
  const tracker = autocannon({
    url,
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    connections: CONNECTIONS,
    amount,
    // autocannon ends a run on its sampling tick (1 s by default): tick often, and time the run
    // from its start to the last answer
    sampleInt: 20,
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: bodies[next++] ?? bodies[bodies.length - 1] }),
      },
    ],
  });
  let t0;
  let last;
  tracker.once("start", () => (t0 = performance.now()));
  tracker.on("response", () => (last = performance.now()));
  const result = await tracker;
  const f = figures(result);
  if (t0 !== undefined && last > t0) {
    f.seconds = Math.round((last - t0) / 10) / 100;
    f.rps = f.requests / ((last - t0) / 1000);
  }
  return { ...f, codes: bodies.length };
}
