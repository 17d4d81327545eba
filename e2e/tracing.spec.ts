/**
 * Traces on the production build (issue 27, item 3): an `idv serve` with
 * OTEL_EXPORTER_OTLP_ENDPOINT set sends its spans over OTLP/HTTP (JSON) to a collector here — one
 * trace for an API request served by the fast path, its server span named by the route with the
 * request id, the statements below it — and flushes what it buffered when it stops.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createWorkspace } from "./support/cli";
import { E2E_ENV, E2E_HOSTS, E2E_PORT } from "./support/env";

const root = path.resolve(import.meta.dirname, "..");
const PORT = E2E_PORT + 4;
const BASE = `http://127.0.0.1:${PORT}`;

interface TOtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

let instance: ChildProcess | undefined;
let collector: http.Server | undefined;
let log = "";
const spans: TOtlpSpan[] = [];
const paths: string[] = [];

test.afterAll(async () => {
  if (instance && instance.exitCode === null) instance.kill("SIGKILL");
  collector?.close();
});

const attribute = (span: TOtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

test("an instance with an OTLP endpoint exports one trace per request", async () => {
  test.setTimeout(120_000);
  collector = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      paths.push(req.url ?? "");
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { scopeSpans: { spans: TOtlpSpan[] }[] }[];
      };
      for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector!.listen(0, "127.0.0.1", resolve));
  const collectorPort = (collector.address() as AddressInfo).port;

  instance = spawn(process.execPath, [path.join(root, "bin", "idv.mjs"), "serve", "--port", String(PORT)], {
    cwd: root,
    env: {
      ...process.env,
      ...E2E_ENV,
      IDV_HOSTS: JSON.stringify(E2E_HOSTS),
      IDV_JOBS: "off",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
      OTEL_SERVICE_NAME: "idv-e2e",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  instance.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  instance.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((resolve) => instance!.once("exit", (code) => resolve(code)));
  await expect
    .poll(
      async () =>
        fetch(`${BASE}/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 90_000 },
    )
    .toBe(200);

  const { keys } = await createWorkspace("tracing");
  const listed = await fetch(`${BASE}/api/sandbox/v1/apps`, {
    headers: { authorization: `Bearer ${keys.sandbox}` },
  });
  expect(listed.status).toBe(200);
  const requestId = listed.headers.get("x-request-id");
  expect(requestId).toMatch(/^req_/);

  // the batch is sent at the latest when the instance stops
  instance.kill("SIGTERM");
  expect(await exited, log).toBe(0);
  expect(paths.every((p) => p === "/v1/traces")).toBe(true);
  const server = spans.find((s) => attribute(s, "idv.request_id") === requestId);
  expect(server, log).toBeDefined();
  expect(server!.name).toBe("GET /v1/apps");
  expect(server!.parentSpanId ?? "").toBe("");
  expect(attribute(server!, "http.response.status_code")).toBe(200);
  const statements = spans.filter(
    (s) => s.traceId === server!.traceId && attribute(s, "db.system.name") === "postgresql",
  );
  expect(statements.length).toBeGreaterThanOrEqual(1);
  expect(statements.every((s) => s.parentSpanId === server!.spanId)).toBe(true);
});
