/**
 * An instance's life as a load balancer or an orchestrator sees it (issue 27), on the production
 * build: a second `idv serve` on the e2e database (its own port, running jobs) answers /healthz and
 * /readyz; on SIGTERM it stops accepting connections at once, lets a request already in flight
 * (its body still arriving) finish and answer, stops its job worker and exits with code 0. Its
 * metrics are served to the bearer of the metrics token, on its port and on the metrics port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createWorkspace } from "./support/cli";
import { E2E_ENV, E2E_HOSTS, E2E_PORT } from "./support/env";

const root = path.resolve(import.meta.dirname, "..");
const PORT = E2E_PORT + 2;
const BASE = `http://127.0.0.1:${PORT}`;
const METRICS_PORT = E2E_PORT + 3;
const METRICS_TOKEN = "e2e-metrics-token-0123456789";

let instance: ChildProcess | undefined;
let log = "";

async function untilReady(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${BASE}/readyz did not become ready:\n${log}`);
}

/** Sends `head` and the first `first` bytes of `body` now; `rest()` sends the remainder and resolves with the raw answer. */
function slowRequest(head: string[], body: string, first: number) {
  const socket = net.connect(PORT, "127.0.0.1");
  let answer = "";
  const closed = new Promise<string>((resolve) => {
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => undefined);
  });
  const sent = new Promise<void>((resolve) =>
    socket.once("connect", () => {
      socket.write(
        `${head.join("\r\n")}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body.slice(0, first), () => resolve());
    }),
  );
  return {
    sent,
    rest: async () => {
      socket.write(body.slice(first));
      return closed;
    },
  };
}

test.afterAll(async () => {
  if (!instance || instance.exitCode !== null) return;
  instance.kill("SIGKILL");
});

test("health, readiness and a graceful stop of one instance", async () => {
  test.setTimeout(120_000);
  instance = spawn(process.execPath, [path.join(root, "bin", "idv.mjs"), "serve", "--port", String(PORT)], {
    cwd: root,
    env: {
      ...process.env,
      ...E2E_ENV,
      IDV_HOSTS: JSON.stringify(E2E_HOSTS),
      IDV_JOBS: "on",
      IDV_SHUTDOWN_TIMEOUT_MS: "20000",
      IDV_METRICS_TOKEN: METRICS_TOKEN,
      IDV_METRICS_PORT: String(METRICS_PORT),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  instance.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  instance.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((resolve) => instance!.once("exit", (code) => resolve(code)));

  await untilReady(Date.now() + 90_000);
  // it started on the fast path: the check of Next.js's internals passed on this build
  expect(log).toContain(`Ready on http://127.0.0.1:${PORT}`);
  expect(log).not.toContain("fast path off");
  expect(log).not.toContain("fast path:");
  const live = await fetch(`${BASE}/healthz`);
  expect(live.status).toBe(200);
  expect(await live.json()).toEqual({ status: "ok" });
  const ready = await fetch(`${BASE}/readyz`);
  expect(await ready.json()).toEqual({ status: "ready" });
  expect(ready.headers.get("cache-control")).toBe("no-store");

  // metrics: to the token's bearer only, on the service's port and on the metrics port
  expect((await fetch(`${BASE}/metrics`)).status).toBe(401);
  expect(
    (await fetch(`${BASE}/metrics`, { headers: { authorization: "Bearer not-the-token-000000" } })).status,
  ).toBe(401);
  await fetch(`${BASE}/api/sandbox/v1/apps`, { headers: { authorization: "Bearer idv_test_wrong" } });
  for (const url of [`${BASE}/metrics`, `http://127.0.0.1:${METRICS_PORT}/metrics`]) {
    const scraped = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status, url).toBe(200);
    const text = await scraped.text();
    expect(text).toContain('idv_http_requests_total{route="/api/[env]/v1/apps",method="GET",status="401"} 1');
    expect(text).toMatch(/^idv_webhook_queue_depth \d+$/m);
    expect(text).toMatch(/^idv_process_resident_memory_bytes \d+/m);
  }
  expect((await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).status).toBe(401);

  // a request in flight: an app's creation whose body has not all arrived yet
  const { keys } = await createWorkspace("lifecycle");
  const body = JSON.stringify({ name: "Created while stopping" });
  const creation = slowRequest(
    [
      "POST /api/sandbox/v1/apps HTTP/1.1",
      "Host: 127.0.0.1",
      `Authorization: Bearer ${keys.sandbox}`,
      "Content-Type: application/json",
    ],
    body,
    5,
  );
  await creation.sent;
  await new Promise((r) => setTimeout(r, 200));

  const signalled = Date.now();
  instance.kill("SIGTERM");
  // no new connection is accepted
  await expect
    .poll(
      async () =>
        fetch(`${BASE}/healthz`).then(
          () => "accepted",
          () => "refused",
        ),
      { timeout: 5_000 },
    )
    .toBe("refused");
  // the request in flight finishes and answers
  const answer = await creation.rest();
  expect(answer).toMatch(/^HTTP\/1\.1 201 /);
  const created = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as {
    clientId: string;
    name: string;
  };
  expect(created.name).toBe("Created while stopping");
  // and it was really stored: the e2e server reads it
  const read = await fetch(`http://127.0.0.1:${E2E_PORT}/api/sandbox/v1/apps/${created.clientId}`, {
    headers: { authorization: `Bearer ${keys.sandbox}` },
  });
  expect(read.status).toBe(200);
  // the process stops by itself, cleanly, well before the deadline
  expect(await exited).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(20_000);
  expect(log).toContain("SIGTERM: finishing the requests in flight");
  expect(log).not.toMatch(/unhandled|shutdown failed/i);
});
