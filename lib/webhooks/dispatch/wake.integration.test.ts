/**
 * Waking this process's webhook dispatcher without a NOTIFY (lib/webhooks/dispatch/wake.ts, migration
 * 20261128010000): a statement run on its own, or in a transaction whose commit it knows, that
 * queues deliveries while this process runs a dispatcher sends no notification and wakes the
 * dispatcher once committed (also a session's own Prisma transaction, whose commit its opener
 * knows); inside another Prisma transaction, or with no dispatcher here, the
 * trigger notifies every instance as before. Delivery itself is proven with a real receiver.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { startWebhookReceiver, type TWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { makeVerificationRow, makeWebhookApp, setUpWebhookDeliveryTests } from "@/lib/testing/webhooks";
import { inSessionTransaction, recordEvent, saveChange } from "@/lib/verifications/transitions";
import { QUEUE_CHANNEL } from "./queue";
import { emitVerificationEvents } from "../events";
import { inWakingTransaction, localDispatcher, setLocalDispatcher, type TWakeable } from "./wake";
import { inTransaction } from "../../db/kysely";

setUpWebhookDeliveryTests();

let receiver: TWebhookReceiver;
let listener: pg.Client;
const notifications: string[] = [];

beforeAll(async () => {
  // one receiver for the file: every delivery succeeds, so no retry (which notifies) crosses a test
  receiver = await startWebhookReceiver();
  listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await listener.connect();
  listener.on("notification", (n) => notifications.push(n.channel));
  await listener.query(`LISTEN ${QUEUE_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await receiver.close();
});
beforeEach(async () => {
  await notified();
  notifications.length = 0;
});

/** The next `n` requests the receiver gets. */
async function nextRequests(n: number) {
  const seen = receiver.requests.length;
  return (await receiver.waitForRequests(seen + n)).slice(seen);
}

/** The notifications sent so far: a query's answer comes after every notification before it. */
async function notified(): Promise<number> {
  await listener.query("SELECT 1");
  return notifications.length;
}

async function sessionWithWebhook() {
  const { app } = await makeWebhookApp({
    url: receiver.url,
    events: ["verification.created", "verification.requested"],
  });
  return makeVerificationRow(app.clientId);
}

describe("with a dispatcher in this process (the job worker's)", () => {
  it("a statement on its own queues the delivery without a NOTIFY, and the dispatcher sends it", async () => {
    const session = await sessionWithWebhook();
    const arriving = nextRequests(1);
    await emitVerificationEvents(kysely(), session, [{ type: "verification.created" }]);
    const [request] = await arriving;
    expect(request!.event!.event).toBe("verification.created");
    expect(await notified()).toBe(0);
  });

  it("a Prisma transaction still notifies (its commit is not known here)", async () => {
    const session = await sessionWithWebhook();
    await inTransaction(kysely(), (tx) =>
      emitVerificationEvents(tx, session, [{ type: "verification.created" }]),
    );
    await receiver.waitForRequests(1);
    expect(await notified()).toBe(1);
  });

  it("a transaction of the data layer that wakes after its commit queues without a NOTIFY and is sent once committed", async () => {
    const session = await sessionWithWebhook();
    const arriving = nextRequests(2);
    await inWakingTransaction(kysely(), (tx) =>
      emitVerificationEvents(tx, session, [
        { type: "verification.created" },
        { type: "verification.requested" },
      ]),
    );
    const requests = await arriving;
    expect(requests.map((r) => r.event!.event)).toEqual(["verification.created", "verification.requested"]);
    expect(await notified()).toBe(0);
  });

  it("a session's own transaction (a Prisma one, inSessionTransaction) queues without a NOTIFY and is sent once committed", async () => {
    const session = await sessionWithWebhook();
    const arriving = nextRequests(1);
    await inSessionTransaction(kysely(), session.id, (tx, change) => {
      recordEvent(change, "verification.created");
      return saveChange(tx, change);
    });
    const [request] = await arriving;
    expect(request!.event!.event).toBe("verification.created");
    expect(await notified()).toBe(0);
  });
});

describe("the wake itself", () => {
  const woken: number[] = [];
  let session: Awaited<ReturnType<typeof sessionWithWebhook>>;
  /** Records each wake with how many of the session's deliveries another connection sees then. */
  const recorder: TWakeable = {
    wake: () => {
      void listener
        .query(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id IN (SELECT id FROM verification_events WHERE verification_id = $1)",
          [session.id],
        )
        .then((r: pg.QueryResult<{ n: number }>) => woken.push(r.rows[0]!.n));
    },
  };

  let workers: TWakeable | undefined;

  beforeEach(async () => {
    woken.length = 0;
    session = await sessionWithWebhook();
    workers = localDispatcher();
    expect(workers).toBeDefined();
    setLocalDispatcher(recorder);
  });
  afterEach(() => {
    // the worker's own dispatcher again (it sends whatever the recorder was woken for)
    setLocalDispatcher(workers);
  });

  it("comes after the commit, never before, and not at all for a rolled-back transaction", async () => {
    await inWakingTransaction(kysely(), async (tx) => {
      await emitVerificationEvents(tx, session, [{ type: "verification.created" }]);
      // inside the transaction: nothing woken yet
      expect(woken).toEqual([]);
    });
    await expect.poll(() => woken).toEqual([1]);

    await expect(
      inWakingTransaction(kysely(), async (tx) => {
        await emitVerificationEvents(tx, session, [{ type: "verification.requested" }]);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await listener.query("SELECT 1");
    expect(woken).toEqual([1]);
    expect(await notified()).toBe(0);
  });

  it("without a dispatcher in this process (IDV_JOBS=off), the trigger notifies the others", async () => {
    setLocalDispatcher(undefined);
    await emitVerificationEvents(kysely(), session, [{ type: "verification.created" }]);
    expect(await notified()).toBe(1);
    expect(woken).toEqual([]);
  });
});
