// Load benchmark of the hot authenticated paths against a running server (`npm start`).
// Usage: BENCH_URL=http://127.0.0.1:3000 BENCH_KEY=sk_workspace_test_… node scripts/bench.mjs
// It creates one app with the key, then measures for BENCH_SECONDS (default 10) each:
//   GET /api/sandbox/v1/apps/{id}          (Bearer workspace key: one SHA-256 + one indexed lookup)
//   GET /api/sandbox/v1/providers          (Basic app credentials)
//   POST /api/sandbox/v1/verifications     (a session: workflow plan, 3 events, expiry job)
//   GET /api/sandbox/v1/verifications/{id} (the status record)
// Loopback only; bounded in time.
import autocannon from "autocannon";

const base = process.env.BENCH_URL ?? "http://127.0.0.1:3000";
const key = process.env.BENCH_KEY;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
if (!key) {
  console.error("Set BENCH_KEY to a sandbox workspace key (npm run dev prints one).");
  process.exit(2);
}
const host = new URL(base).hostname;
if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
  console.error("The benchmark only targets loopback addresses.");
  process.exit(2);
}

const created = await fetch(`${base}/api/sandbox/v1/apps`, {
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify({ name: "Benchmark app" }),
});
if (created.status !== 201) {
  console.error(`creating the benchmark app failed: ${created.status} ${await created.text()}`);
  process.exit(1);
}
const app = await created.json();
const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");

const session = await fetch(`${base}/api/sandbox/v1/verifications`, {
  method: "POST",
  headers: { authorization: `Basic ${basic}`, "content-type": "application/json" },
  body: JSON.stringify({ providerId: "passport" }),
});
const { verificationId } = await session.json();

const scenarios = [
  { name: "GET app (Bearer)", path: `/api/sandbox/v1/apps/${app.clientId}`, auth: `Bearer ${key}` },
  { name: "GET providers (Basic)", path: "/api/sandbox/v1/providers", auth: `Basic ${basic}` },
  {
    name: "POST verification",
    path: "/api/sandbox/v1/verifications",
    auth: `Basic ${basic}`,
    method: "POST",
    body: JSON.stringify({ providerId: "passport" }),
  },
  {
    name: "GET verification",
    path: `/api/sandbox/v1/verifications/${verificationId}`,
    auth: `Basic ${basic}`,
  },
];

for (const s of scenarios) {
  const result = await autocannon({
    url: `${base}${s.path}`,
    connections: 10,
    duration: seconds,
    method: s.method ?? "GET",
    headers: { authorization: s.auth, ...(s.body ? { "content-type": "application/json" } : {}) },
    ...(s.body ? { body: s.body } : {}),
  });
  const non2xx = result.non2xx;
  console.log(
    `${s.name.padEnd(24)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  errors ${result.errors}  non-2xx ${non2xx}`,
  );
}

await fetch(`${base}/api/sandbox/v1/apps/${app.clientId}`, {
  method: "DELETE",
  headers: { authorization: `Bearer ${key}` },
});
