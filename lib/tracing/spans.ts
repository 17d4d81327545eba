/**
 * Spans of the service's own work, through OpenTelemetry's API (lib/tracing/sdk.ts starts the SDK
 * only when OTEL_EXPORTER_OTLP_ENDPOINT is set). Rules:
 * - off, every helper here runs its work and nothing else (one boolean read: no span objects, no
 *   context switch), so the hot paths pay nothing without tracing;
 * - one trace per request: the pipeline's server span (lib/http/pipeline.ts) is the root, with the
 *   request id as `idv.request_id`; statements (lib/db/kysely.ts), upstream calls
 *   (lib/http/guarded-fetch.ts) and anything else below run in its context and are its children;
 *   a webhook attempt (lib/webhooks/dispatch) is a trace of its own (it runs after the request);
 * - attributes carry no personal data: the statement's text (its values are parameters, never
 *   in it), a host and a path template or a path, statuses and ids of our own records.
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

const TRACING = Symbol.for("idv.tracing");

type TGlobal = typeof globalThis & { [TRACING]?: boolean };

/** Whether spans are recorded in this process (the SDK started: lib/tracing/sdk.ts). */
export function tracingOn(): boolean {
  return (globalThis as TGlobal)[TRACING] === true;
}

/** Called by lib/tracing/sdk.ts once its provider is registered (and by tests with their own). */
export function setTracingOn(on: boolean): void {
  (globalThis as TGlobal)[TRACING] = on;
}

const tracer = () => trace.getTracer("idv-broker");

function fail(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : new Error(String(err)));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Runs `fn` inside a span `name` (a child of the active span; the root when there is none, or
 * with `root`, a trace of its own whatever runs around it): the
 * span ends when `fn` settles, an exception recorded and the status an error when it throws.
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; root?: boolean },
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, root: options.root },
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        fail(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** A span of a client call (a statement, an HTTP request) around `run`, a child of the active span. */
export function clientSpan<T>(
  name: string,
  attributes: Attributes,
  run: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return run(undefined);
  const span = tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes }, context.active());
  return context
    .with(trace.setSpan(context.active(), span), () => run(span))
    .then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        fail(span, err);
        span.end();
        throw err;
      },
    );
}

/** Adds attributes to the span this code runs in, if any (the route's template, a status). */
export function annotateSpan(attributes: Attributes, name?: string): void {
  if (!tracingOn()) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttributes(attributes);
  if (name) span.updateName(name);
}

export { SpanKind };
