/**
 * The OpenTelemetry SDK of the server process, started by instrumentation.ts only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/deployment.md "Traces"): a Node tracer provider whose
 * context follows async calls (AsyncLocalStorage), spans batched to the OTLP/HTTP exporter (which
 * reads the standard OTEL_EXPORTER_OTLP_* variables itself: headers, timeout), W3C trace context
 * propagated, and the undici instrumentation for fetch calls made with Node's own client. The
 * service's own spans are lib/tracing/spans.ts's. `stop()` flushes what is buffered (the graceful
 * shutdown calls it last).
 */
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { config } from "../config";
import { logger } from "../log";
import { setTracingOn } from "./spans";

export interface TTracing {
  /** flushes the spans still buffered and stops the provider */
  stop(): Promise<void>;
}

/** Registers a tracer provider with `processor` as the process's and turns the service's spans on. */
export function startTracingWith(processor: SpanProcessor, serviceName = config().serviceName): TTracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [processor],
  });
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new UndiciInstrumentation()],
  });
  setTracingOn(true);
  return {
    async stop() {
      setTracingOn(false);
      unregister();
      await provider.shutdown();
    },
  };
}

/** The SDK as OTEL_EXPORTER_OTLP_ENDPOINT asks, or undefined when it is unset (no tracing). */
export function startTracing(): TTracing | undefined {
  const endpoint = config().otlpEndpoint;
  if (!endpoint) return undefined;
  const exporter = new OTLPTraceExporter({
    url: new URL("v1/traces", endpoint.endsWith("/") ? endpoint : `${endpoint}/`).toString(),
  });
  const tracing = startTracingWith(new BatchSpanProcessor(exporter));
  logger.info({ endpoint }, "tracing: spans exported over OTLP/HTTP");
  return tracing;
}
