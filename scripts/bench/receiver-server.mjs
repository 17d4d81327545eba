// The webhook receiver of the benchmark: a node:http server on a free port of 127.0.0.1 that
// answers every POST with 204 at once and records, per request, the event id, type, app,
// verification, the event's state-change timestamp (payload `timestamp`) and the arrival time
// (when the body has been read). A process of its own, so that the load generator's event loop
// does not delay arrivals. Forked by scripts/bench.mjs; `records` over IPC returns (and, with
// `{ clear: true }`, forgets) what arrived.
import http from "node:http";

let records = [];
const server = http.createServer((req, res) => {
  if (req.method !== "POST") {
    res.writeHead(200, { "content-type": "text/plain" }).end("benchmark receiver");
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const at = Date.now();
    let event = {};
    try {
      event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      // recorded with an undefined eventId
    }
    records.push({
      eventId: event.eventId,
      type: event.event,
      clientId: event.clientId,
      verificationId: event.data?.verificationId,
      timestamp: Date.parse(event.timestamp ?? event.data?.event?.timestamp ?? ""),
      at,
    });
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;

process.on("message", (m) => {
  if (m?.type === "records") {
    const data = m.data?.clientId ? records.filter((r) => r.clientId === m.data.clientId) : records;
    if (m.data?.clear)
      records = m.data?.clientId ? records.filter((r) => r.clientId !== m.data.clientId) : [];
    process.send({ reply: m.id, data });
  } else if (m?.type === "count") {
    process.send({ reply: m.id, data: records.length });
  }
});
server.listen(0, "127.0.0.1", () => process.send({ ready: true, port: server.address().port }));
process.on("SIGTERM", () => process.exit(0));
process.on("disconnect", () => process.exit(0));
