/**
 * Traces (issue 27, item 3), exported to an in-memory exporter: one session creation is one trace
 * whose root is the request's server span (named by its route, the request id an attribute), with
 * every statement it ran as a child; an upstream call made while serving a request joins its
 * trace; a webhook attempt is a trace of its own; with tracing off nothing is recorded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { guardedFetch } from "../http/guarded-fetch";
import { makeVerifyingApp } from "../testing/verifications";
import { startTracingWith, type TTracing } from "./sdk";
import { inSpan, setTracingOn } from "./spans";

const exporter = new InMemorySpanExporter();
let tracing: TTracing;

beforeAll(() => {
  tracing = startTracingWith(new SimpleSpanProcessor(exporter), "idv-test");
});
afterAll(async () => {
  await tracing.stop();
});
beforeEach(() => {
  setTracingOn(true);
  exporter.reset();
});

const spanId = (span: ReadableSpan) => span.spanContext().spanId;
const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** The spans of the trace whose root is `root`, found by walking parents up to it. */
function descendants(spans: ReadableSpan[], root: ReadableSpan): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [spanId(s), s]));
  return spans.filter((span) => {
    let at: ReadableSpan | undefined = span;
    while (at && at !== root) at = byId.get(parentId(at) ?? "");
    return at === root && span !== root;
  });
}

describe("traces", () => {
  it("a session creation is one trace: the route's server span with the request id, its statements below", async () => {
    const t = await makeVerifyingApp(["passport"]);
    exporter.reset();
    const res = await t.start({ providerId: "passport" });
    expect(res.status).toBe(201);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_/);

    const spans = exporter.getFinishedSpans();
    const roots = spans.filter((s) => s.attributes["idv.request_id"] === requestId);
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root.name).toBe("POST /v1/verifications");
    expect(root.kind).toBe(SpanKind.SERVER);
    expect(parentId(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v1/verifications",
      "http.response.status_code": 201,
      "idv.surface": "rest",
    });

    const below = descendants(spans, root);
    const statements = below.filter((s) => s.attributes["db.system.name"] === "postgresql");
    // every statement of the request ran inside its trace, none outside it
    expect(statements.length).toBeGreaterThanOrEqual(3);
    expect(statements.every((s) => s.kind === SpanKind.CLIENT)).toBe(true);
    expect(statements.every((s) => s.spanContext().traceId === root.spanContext().traceId)).toBe(true);
    const texts = statements.map((s) => String(s.attributes["db.query.text"]));
    expect(texts.some((text) => /insert into "verifications"/i.test(text))).toBe(true);
    // named by the prepared statement or the command PostgreSQL reports
    for (const s of statements) expect(s.attributes["db.operation.name"]).toMatch(/^[A-Z]+$/);
    // the statement's values are parameters: the session's id is in no span of the trace
    const created = (res.body as { id: string }).id;
    expect(JSON.stringify(below.map((s) => s.attributes))).not.toContain(created);
  });

  it("an upstream call made inside a request's span is a client span of its trace", async () => {
    const server = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    try {
      await inSpan("GET /test", { kind: SpanKind.SERVER }, async () => {
        const response = await guardedFetch(`http://127.0.0.1:${port}/jwks?code=secret`);
        expect(response.status).toBe(204);
      });
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
      server.close();
    }
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === "GET /test")!;
    const call = spans.find(
      (s) => s.kind === SpanKind.CLIENT && s.attributes["server.address"] === "127.0.0.1",
    )!;
    expect(parentId(call)).toBe(spanId(root));
    expect(call.attributes).toMatchObject({
      "http.request.method": "GET",
      "server.port": port,
      "url.path": "/jwks",
      "http.response.status_code": 204,
    });
    // never the query: it may carry a code
    expect(JSON.stringify(call.attributes)).not.toContain("secret");
  });

  it("records nothing with tracing off", async () => {
    setTracingOn(false);
    const t = await makeVerifyingApp(["passport"]);
    expect((await t.start({ providerId: "passport" })).status).toBe(201);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
