/**
 * The expiry sweep on a database of this file's own (every due session in it is one of these
 * tests'): a due session expires with its event and webhook delivery, nothing else is touched,
 * batches are bounded, concurrent sweeps expire each session once and never wait for a locked
 * one, the job worker runs it on its timer, and no creation queues a job any more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { sql } from "kysely";
import { inTransaction } from "../db/kysely";
import { expirySweepJob } from "../jobs/definitions";
import { CRONTAB, jobNamed } from "../jobs/handlers";
import { startJobWorker, stopJobWorker } from "../jobs/worker";
import { waitFor } from "../testing/jobs";
import { activateProviders, eventTypes } from "../testing/verifications";
import { basic, call } from "../testing/router";
import { startWebhookReceiver, type TWebhookReceiver } from "../testing/webhook-receiver";
import { isolateTestDatabase, makeWebhookApp } from "../testing/webhooks";
import { EVENT_TYPES } from "../webhooks/event-types";
import { APPLICATION_NAME, ExpirySweeper, sweepExpiredSessions } from "./expiry-sweep";
import { expireDueSessions, lockVerification } from "./transitions";

process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
isolateTestDatabase();

const CREATED = ["verification.created", "verification.requested", "verification.workflow.started"];
const TIMED_OUT = "verification.session.timed_out";

let receiver: TWebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** An app whose webhook subscribes to every event, and App API helpers for it. */
async function webhookApp(path: string) {
  const hook = await makeWebhookApp({ url: receiver.urlFor(path), events: [...EVENT_TYPES] });
  await activateProviders(hook.app.clientId, ["passport"]);
  const creds = basic(hook.app.clientId, hook.app.clientSecret);
  const start = async (): Promise<string> => {
    const res = await call("POST", "/api/sandbox/v1/verifications", {
      headers: creds,
      body: { providerId: "passport" },
    });
    expect(res.status).toBe(201);
    return res.body.verificationId as string;
  };
  return {
    app: hook.app,
    start,
    startMany: async (n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push(await start());
      return ids;
    },
    simulate: (id: string, outcome: string) =>
      call("POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
        headers: creds,
        body: { outcome },
      }),
  };
}

/** Moves the sessions' expiresAt a second into the past: they are due. */
async function makeDue(ids: string[]): Promise<void> {
  const now = Date.now();
  await kysely()
    .updateTable("verifications")
    .set({ expiresAt: new Date(now - 1000), updatedAt: new Date(now) })
    .where("id", "in", ids)
    .execute();
}

/** timed_out events per session, and timed_out deliveries per session. */
async function timedOut(ids: string[]): Promise<{ events: number[]; deliveries: number[] }> {
  const events = await kysely()
    .selectFrom("verificationEvents")
    .select(["id", "verificationId"])
    .where("verificationId", "in", ids)
    .where("type", "=", TIMED_OUT)
    .execute();
  const deliveries =
    events.length === 0
      ? []
      : await kysely()
          .selectFrom("webhookDeliveries")
          .select("eventId")
          .where(
            "eventId",
            "in",
            events.map((e) => e.id),
          )
          .execute();
  const sessionOf = new Map(events.map((e) => [e.id, e.verificationId]));
  return {
    events: ids.map((id) => events.filter((e) => e.verificationId === id).length),
    deliveries: ids.map((id) => deliveries.filter((d) => sessionOf.get(d.eventId!) === id).length),
  };
}

async function statuses(ids: string[]): Promise<string[]> {
  const rows = await kysely()
    .selectFrom("verifications")
    .select(["id", "status"])
    .where("id", "in", ids)
    .execute();
  return ids.map((id) => rows.find((r) => r.id === id)?.status ?? "missing");
}

describe("the expiry sweep", () => {
  it("expires a due session with its event and delivery, and touches nothing else", async () => {
    const t = await webhookApp("/hooks/one");
    const [due, fresh, completed, cancelled] = await t.startMany(4);
    expect((await t.simulate(completed!, "success")).body.status).toBe("completed");
    expect((await t.simulate(cancelled!, "cancel")).body.status).toBe("cancelled");
    await makeDue([due!, completed!, cancelled!]);
    const before = {
      completed: await eventTypes(completed!),
      cancelled: await eventTypes(cancelled!),
    };

    expect(await sweepExpiredSessions(kysely())).toEqual({ expired: 1, batches: 1 });

    const row = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", due!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "expired", statusReason: "session_timed_out" });
    expect(row.endedAt).not.toBeNull();
    expect(await eventTypes(due!)).toEqual([...CREATED, TIMED_OUT]);
    // the event is the webhook body, with the session as it ended, queued for the app's webhook
    const [event] = await kysely()
      .selectFrom("verificationEvents")
      .selectAll()
      .where("verificationId", "=", due!)
      .where("type", "=", TIMED_OUT)
      .execute();
    expect(event!.payload).toMatchObject({
      event: TIMED_OUT,
      data: { verificationId: due!, status: "expired" },
    });
    const delivery = await kysely()
      .selectFrom("webhookDeliveries")
      .selectAll()
      .where("eventId", "=", event!.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ appId: t.app.clientId, eventType: TIMED_OUT, status: "pending" });
    expect(JSON.parse(delivery.body)).toEqual(event!.payload);

    // not due yet, or ended: untouched
    expect(await statuses([fresh!])).toEqual(["awaiting_user_action"]);
    expect(await eventTypes(fresh!)).toEqual(CREATED);
    expect(await statuses([completed!, cancelled!])).toEqual(["completed", "cancelled"]);
    expect(await eventTypes(completed!)).toEqual(before.completed);
    expect(await eventTypes(cancelled!)).toEqual(before.cancelled);

    // a second sweep finds nothing
    expect(await sweepExpiredSessions(kysely())).toEqual({ expired: 0, batches: 1 });
    expect(await eventTypes(due!)).toEqual([...CREATED, TIMED_OUT]);
  });

  it("creates sessions without queueing a job", async () => {
    const t = await webhookApp("/hooks/jobs");
    const ids = await t.startMany(3);
    // no job of any task names one of the sessions
    const patterns = ids.map((id) => `%${id}%`);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE payload::text LIKE ANY (${patterns}::text[])
    `.execute(kysely());
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("expires at most a batch per transaction, and batch after batch until none is due", async () => {
    const t = await webhookApp("/hooks/batches");
    const ids = await t.startMany(7);
    await makeDue(ids);

    const one = await inTransaction(kysely(), (tx) => expireDueSessions(tx, new Date(), 3));
    expect(one).toEqual({ claimed: 3, expired: 3 });
    expect((await statuses(ids)).filter((s) => s === "expired")).toHaveLength(3);

    expect(await sweepExpiredSessions(kysely(), { batchSize: 3 })).toEqual({ expired: 4, batches: 2 });
    expect(await statuses(ids)).toEqual(ids.map(() => "expired"));
    expect(await timedOut(ids)).toEqual({ events: ids.map(() => 1), deliveries: ids.map(() => 1) });
  });

  it("expires each session once when two sweeps run at the same time", async () => {
    const t = await webhookApp("/hooks/concurrent");
    const ids = await t.startMany(40);
    await makeDue(ids);

    const [a, b] = await Promise.all([
      sweepExpiredSessions(kysely(), { batchSize: 4 }),
      sweepExpiredSessions(kysely(), { batchSize: 4 }),
    ]);
    expect(a.expired + b.expired).toBe(ids.length);
    expect(await statuses(ids)).toEqual(ids.map(() => "expired"));
    expect(await timedOut(ids)).toEqual({ events: ids.map(() => 1), deliveries: ids.map(() => 1) });
  });

  it("passes over a session another transaction holds instead of waiting for it", async () => {
    const t = await webhookApp("/hooks/locked");
    const [held, free] = await t.startMany(2);
    await makeDue([held!, free!]);

    // the session is locked (as an end-user's action would) while a sweep runs
    const during = await inTransaction(kysely(), async (tx) => {
      await lockVerification(tx, held!);
      return sweepExpiredSessions(kysely());
    });
    expect(during.expired).toBe(1);
    expect(await statuses([held!, free!])).toEqual(["awaiting_user_action", "expired"]);

    expect((await sweepExpiredSessions(kysely())).expired).toBe(1);
    expect(await statuses([held!, free!])).toEqual(["expired", "expired"]);
    expect(await timedOut([held!, free!])).toEqual({ events: [1, 1], deliveries: [1, 1] });
  });

  it("leaves a session that fell due but ended otherwise before the sweep came", async () => {
    // until a sweep expires it, a due session can still end (docs/decisions.md, issue 15)
    const t = await webhookApp("/hooks/late");
    const [id] = await t.startMany(1);
    await makeDue([id!]);
    expect((await t.simulate(id!, "success")).body.status).toBe("completed");
    expect((await sweepExpiredSessions(kysely())).expired).toBe(0);
    expect(await statuses([id!])).toEqual(["completed"]);
    expect(await eventTypes(id!)).not.toContain(TIMED_OUT);
  });
});

describe("the sweeper of the job worker", () => {
  it("has a once-a-minute cron job that sweeps as well", async () => {
    const t = await webhookApp("/hooks/cron");
    const ids = await t.startMany(2);
    await makeDue(ids);
    expect(CRONTAB).toContain(`* * * * * ${expirySweepJob.name}`);
    await jobNamed(expirySweepJob.name)!.task({});
    expect(await statuses(ids)).toEqual(["expired", "expired"]);
    expect(await timedOut(ids)).toEqual({ events: [1, 1], deliveries: [1, 1] });
  });

  it("expires due sessions on its timer, their event reaching the webhook", async () => {
    const t = await webhookApp("/hooks/worker");
    const [id] = await t.startMany(1);
    await startJobWorker(process.env.DATABASE_URL, { pollInterval: 100, expirySweepMs: 100 });
    try {
      await makeDue([id!]);
      await waitFor(async () => (await statuses([id!]))[0] === "expired");
      const arrived = await waitFor(async () =>
        receiver.requests.find((r) => r.path === "/hooks/worker" && r.event?.event === TIMED_OUT),
      );
      expect(arrived.event?.data).toMatchObject({ verificationId: id, status: "expired" });
    } finally {
      await stopJobWorker();
    }
  });

  it("closes its connection when stopped", async () => {
    const sweeper = new ExpirySweeper({ connectionString: process.env.DATABASE_URL!, intervalMs: 50 });
    const t = await webhookApp("/hooks/sweeper");
    const [id] = await t.startMany(1);
    await makeDue([id!]);
    sweeper.start();
    await waitFor(async () => (await statuses([id!]))[0] === "expired");
    await sweeper.stop();
    const connections = async () => {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = ${APPLICATION_NAME}
      `.execute(kysely());
      return rows[0]?.n;
    };
    await waitFor(async () => (await connections()) === 0);
    expect(await connections()).toBe(0);
  });
});
