/**
 * A webhook attempt is a trace of its own (issue 27, item 3): it runs after the request that
 * queued its delivery, in the dispatcher, so it is a root client span named "webhook attempt" with
 * the delivery's id, its event type, the attempt's number and the receiver's status — never a
 * child of whatever request happened to wake the dispatcher.
 */
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, expect, it } from "vitest";
import { waitFor } from "../testing/jobs";
import { bearer, call } from "../testing/router";
import { startWebhookReceiver, type TWebhookReceiver } from "../testing/webhook-receiver";
import { makeWebhookApp, setUpWebhookDeliveryTests } from "../testing/webhooks";
import { startTracingWith, type TTracing } from "./sdk";

setUpWebhookDeliveryTests();

const exporter = new InMemorySpanExporter();
let tracing: TTracing;
let receiver: TWebhookReceiver;

beforeAll(async () => {
  tracing = startTracingWith(new SimpleSpanProcessor(exporter), "idv-test");
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await tracing.stop();
});

it("traces a webhook attempt on its own: a root client span with the delivery and the answer", async () => {
  const { key, base } = await makeWebhookApp({ url: receiver.url });
  receiver.failFirst(1, 503);
  const sent = await call("POST", `${base}/webhook-config/test`, { headers: bearer(key) });
  expect(sent.status).toBeLessThan(300);
  const requestTrace = exporter
    .getFinishedSpans()
    .find((s) => s.attributes["idv.request_id"] === sent.headers.get("x-request-id"));
  expect(requestTrace).toBeDefined();

  // the 503, then the retry's 200
  const attempts = await waitFor(async () => {
    const spans = exporter.getFinishedSpans().filter((s) => s.name === "webhook attempt");
    return spans.length >= 2 ? spans : undefined;
  });
  const [first, second] = [...attempts].sort(
    (a, b) => Number(a.attributes["idv.webhook.attempt"]) - Number(b.attributes["idv.webhook.attempt"]),
  );
  expect(receiver.requests.length).toBeGreaterThanOrEqual(2);
  const deliveryId = receiver.requests[0]!.headers["x-service-delivery"];
  for (const span of [first!, second!]) {
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(requestTrace!.spanContext().traceId);
    expect(span.attributes).toMatchObject({
      "idv.webhook.delivery_id": deliveryId,
      "idv.webhook.event_type": "webhook.test",
      "server.address": "127.0.0.1",
    });
  }
  expect(first!.attributes).toMatchObject({ "idv.webhook.attempt": 1, "http.response.status_code": 503 });
  expect(first!.status.code).toBe(2); // SpanStatusCode.ERROR
  expect(second!.attributes).toMatchObject({ "idv.webhook.attempt": 2, "http.response.status_code": 200 });
});
