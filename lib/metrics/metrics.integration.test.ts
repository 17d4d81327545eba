/**
 * The metrics exposition on the real database (its own, so no other test file's deliveries or jobs
 * move the gauges): every series of the list is exposed; the queue gauges read what the
 * database holds — a delivery due 90 s ago and not being sent is the oldest due one, one being
 * sent (leased, not queued) is not waiting; requests are counted by route template.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { newId } from "../ids";
import { makeApp, makeWorkspace } from "../testing/factories";
import { makeVerifyingApp } from "../testing/verifications";
import { isolateTestDatabase } from "../testing/webhooks";
import { countSessionCreated, observeRequest } from "./count";
import { exposition } from "./exposition";

isolateTestDatabase();

/** The value of the series `name{labels}` in `text` (undefined: absent). */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("metrics exposition", () => {
  it("exposes the series an operator alerts on, the queue gauges read from the database", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const now = Date.now();
    const delivery = (dueMsAgo: number, queued: boolean) => ({
      id: newId("dlv"),
      appId: app.clientId,
      eventType: "verification.completed",
      url: "https://hooks.example.com/idv",
      body: "{}",
      nextAttemptAt: new Date(now - dueMsAgo),
      queuedTrigger: queued ? "automatic" : null,
      leaseUntil: queued ? null : new Date(now + 30_000),
      updatedAt: new Date(now),
    });
    await kysely()
      .insertInto("webhookDeliveries")
      .values([
        delivery(90_000, true),
        delivery(10_000, true),
        delivery(-60_000, true),
        delivery(300_000, false),
      ])
      .execute();
    observeRequest("GET", "/api/[env]/v1/apps/[clientId]", 200, 0.004);
    observeRequest("BREW", "/api/[env]/v1/apps/[clientId]", 418, 0.001);
    countSessionCreated("passport", "sandbox");
    observeRequest("POST", "/verify/…", 429, 0.001);

    const { contentType, text } = await exposition();
    expect(contentType).toContain("text/plain");
    // three are queued (one not yet due); the one being sent is not waiting
    expect(valueOf(text, "idv_webhook_queue_depth")).toBe(3);
    const oldest = valueOf(text, "idv_webhook_oldest_due_age_seconds")!;
    expect(oldest).toBeGreaterThanOrEqual(89);
    expect(oldest).toBeLessThan(150);
    expect(valueOf(text, "idv_job_queue_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'idv_db_pool_connections{state="in_use"}')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, "idv_db_pool_waiting")).toBe(0);
    expect(
      valueOf(
        text,
        'idv_http_requests_total{route="/api/[env]/v1/apps/[clientId]",method="GET",status="200"}',
      ),
    ).toBe(1);
    // an unknown method is one label value, not the method sent
    expect(
      valueOf(
        text,
        'idv_http_requests_total{route="/api/[env]/v1/apps/[clientId]",method="OTHER",status="418"}',
      ),
    ).toBe(1);
    expect(
      valueOf(
        text,
        'idv_http_request_duration_seconds_bucket{le="0.005",route="/api/[env]/v1/apps/[clientId]",method="GET",status_class="2xx"}',
      ),
    ).toBe(1);
    expect(
      valueOf(text, 'idv_verification_sessions_created_total{provider="passport",environment="sandbox"}'),
    ).toBe(1);
    expect(valueOf(text, 'idv_rate_limit_rejections_total{surface="hosted"}')).toBe(1);
    for (const name of [
      "idv_verification_sessions_ended_total",
      "idv_webhook_delivery_attempts_total",
      "idv_upstream_requests_total",
      "idv_upstream_request_duration_seconds",
      "idv_process_cpu_user_seconds_total",
      "idv_process_resident_memory_bytes",
      "idv_nodejs_eventloop_lag_seconds",
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    // no ids in any label
    expect(text).not.toMatch(/(app|ver|dlv|ws)_[0-9A-Z]{26}/);
  });

  it("counts a session when it is created and when it ends, by provider and environment", async () => {
    const series = 'idv_verification_sessions_created_total{provider="de_eid",environment="sandbox"}';
    const before = valueOf((await exposition()).text, series) ?? 0;
    const ended =
      'idv_verification_sessions_ended_total{outcome="cancelled",provider="de_eid",environment="sandbox"}';
    const endedBefore = valueOf((await exposition()).text, ended) ?? 0;
    const { start, cancel } = await makeVerifyingApp(["de_eid"]);
    const created = await start({ providerId: "de_eid" });
    expect(created.status).toBe(201);
    const refused = await start({ providerId: "no_such_provider" });
    expect(refused.status).toBe(400);
    expect(valueOf((await exposition()).text, series)).toBe(before + 1);
    // ended once, however often it is cancelled
    const id = (created.body as { verificationId: string }).verificationId;
    expect((await cancel(id)).status).toBeLessThan(300);
    await cancel(id);
    expect(valueOf((await exposition()).text, ended)).toBe(endedBefore + 1);
  });
});
