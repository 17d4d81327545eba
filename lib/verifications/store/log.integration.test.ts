/**
 * lib/verifications/store/log.ts against PostgreSQL: every read gives the rows the fixture makes
 * expected — which sessions, in which order (newest first) and how many, for each filter of the
 * list, an empty status list included; a session's activity — each row with every column as a
 * plain select of its table reads it.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { flushRequestLog } from "../../request-log/writer";
import { bearer, call } from "../../testing/router";
import { makeVerifyingApp } from "../../testing/verifications";
import {
  countVerifications,
  listDeliveries,
  listEvents,
  listRequests,
  listVerifications,
  readVerificationWithApp,
  type TVerificationFilter,
} from "./log";

/** Sessions `ids` as stored, in this order, each with its app's name. */
async function sessionsWithApp(ids: readonly string[]) {
  const rows =
    ids.length === 0
      ? []
      : await kysely()
          .selectFrom("verifications")
          .selectAll()
          .where("id", "in", [...ids])
          .execute();
  const apps =
    rows.length === 0
      ? []
      : await kysely()
          .selectFrom("apps")
          .select(["id", "name"])
          .where(
            "id",
            "in",
            rows.map((r) => r.appId),
          )
          .execute();
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw new Error(`no session ${id}`);
    const app = apps.find((a) => a.id === row.appId);
    if (!app) throw new Error(`no app ${row.appId}`);
    return { ...row, app: { name: app.name } };
  });
}

describe("the verification log's store", () => {
  it("lists and counts the sessions of each filter, newest first, with the app's name", async () => {
    const t = await makeVerifyingApp(["nl_digid"]);
    const ids: string[] = [];
    for (const providerId of ["passport", "nl_digid", "passport", "passport"]) {
      const started = await t.start({ providerId });
      expect(started.status).toBe(201);
      ids.push(started.body.verificationId as string);
    }
    await t.cancel(ids[1]!);
    await t.simulate(ids[2]!, { outcome: "failure" });
    const scope = { workspaceId: t.ws.workspaceId, environment: "sandbox" } as const;
    const later = new Date(Date.now() + 60_000);
    // the sessions: 0 passport open, 1 nl_digid cancelled, 2 passport failed, 3 passport open
    const cases: [TVerificationFilter, number[]][] = [
      [scope, [0, 1, 2, 3]],
      [{ ...scope, status: ["cancelled", "failed"] }, [1, 2]],
      [{ ...scope, status: [] }, []],
      [{ ...scope, providerId: "passport" }, [0, 2, 3]],
      [{ ...scope, appId: t.app.clientId }, [0, 1, 2, 3]],
      [{ ...scope, appId: "app_unknown" }, []],
      [{ ...scope, from: later }, []],
      [{ ...scope, to: later }, [0, 1, 2, 3]],
      [{ ...scope, environment: "production" }, []],
    ];
    for (const [filter, indexes] of cases) {
      // newest first: the last started first
      const newestFirst = indexes.map((i) => ids[i]!).reverse();
      expect(await countVerifications(kysely(), filter)).toBe(newestFirst.length);
      for (const [limit, offset] of [
        [20, 0],
        [2, 1],
      ] as const) {
        const rows = await listVerifications(kysely(), filter, limit, offset);
        expect(rows).toEqual(await sessionsWithApp(newestFirst.slice(offset, offset + limit)));
      }
    }
    expect(await countVerifications(kysely(), scope)).toBe(4);
    expect((await listVerifications(kysely(), scope, 20, 0)).map((v) => v.id)).toEqual([...ids].reverse());
  });

  it("reads a session and its activity", async () => {
    const t = await makeVerifyingApp();
    const hook = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}/webhook-config`, {
      headers: bearer(t.ws.keys.sandbox),
      body: {
        url: "https://hooks.example.com/idv",
        enabled: true,
        events: ["verification.created", "verification.completed"],
      },
    });
    expect(hook.status).toBe(200);
    const started = await t.start({ providerId: "passport" });
    const id = started.body.verificationId as string;
    const read = await t.status(id);
    const simulated = await t.simulate(id, { outcome: "success" });
    // the session's requests, newest first
    const requestIds = [simulated, read, started].map((r) => r.headers.get("x-request-id") ?? "");
    await flushRequestLog();

    const [expectedSession] = await sessionsWithApp([id]);
    expect(expectedSession).toMatchObject({ id, appId: t.app.clientId, status: "completed" });
    expect(await readVerificationWithApp(kysely(), id)).toEqual(expectedSession);
    expect(await readVerificationWithApp(kysely(), "ver_unknown")).toBeUndefined();

    const events = await listEvents(kysely(), id);
    expect(events.length).toBeGreaterThan(2);
    const eventRows = await kysely()
      .selectFrom("verificationEvents")
      .select(["id", "type", "createdAt", "payload", "verificationId"])
      .where("verificationId", "=", id)
      .execute();
    // in the order they were recorded: created first, completed last
    expect(events.map((e) => e.type).slice(0, 3)).toEqual([
      "verification.created",
      "verification.requested",
      "verification.workflow.started",
    ]);
    expect(events.at(-1)?.type).toBe("verification.completed");
    expect(events).toEqual(
      events.map((e) => {
        const row = eventRows.find((r) => r.id === e.id);
        if (!row) throw new Error(`no event ${e.id}`);
        return { id: row.id, type: row.type, createdAt: row.createdAt, payload: row.payload };
      }),
    );
    expect(events).toHaveLength(eventRows.length);

    const deliveries = await listDeliveries(kysely(), id);
    expect(deliveries.map((d) => d.eventType)).toEqual(["verification.created", "verification.completed"]);
    // one delivery for each subscribed event of the session, in the order of the events
    const eventIdOf = (type: string) => events.find((e) => e.type === type)?.id;
    expect(deliveries.map((d) => d.eventId)).toEqual([
      eventIdOf("verification.created"),
      eventIdOf("verification.completed"),
    ]);
    const deliveryRows = await kysely()
      .selectFrom("webhookDeliveries")
      .selectAll()
      .where(
        "id",
        "in",
        deliveries.map((d) => d.id),
      )
      .execute();
    expect(deliveryRows.every((d) => d.verificationId === id)).toBe(true);
    expect(deliveryRows).toHaveLength(2);
    expect(deliveries).toEqual(
      deliveries.map(({ id: deliveryId }) => {
        const d = deliveryRows.find((r) => r.id === deliveryId);
        if (!d) throw new Error(`no delivery ${deliveryId}`);
        return {
          id: d.id,
          eventId: d.eventId,
          eventType: d.eventType,
          status: d.status,
          attemptCount: d.attemptCount,
          lastStatus: d.lastStatus,
          createdAt: d.createdAt,
          deliveredAt: d.deliveredAt,
          nextAttemptAt: d.nextAttemptAt,
        };
      }),
    );

    const scope = { workspaceId: t.ws.workspaceId, environment: "sandbox" } as const;
    for (const limit of [500, 2]) {
      const requests = await listRequests(kysely(), scope, id, limit);
      const logged = await kysely()
        .selectFrom("apiRequestLogs")
        .selectAll()
        .where("id", "in", requestIds)
        .execute();
      const expected = requestIds.slice(0, limit).map((requestId) => {
        const r = logged.find((l) => l.id === requestId);
        if (!r) throw new Error(`request ${requestId} not logged`);
        return r;
      });
      expect(expected.map((r) => [r.method, r.verificationId, r.workspaceId])).toEqual(
        ["POST", "GET", "POST"].slice(0, limit).map((method) => [method, id, t.ws.workspaceId]),
      );
      expect(requests).toEqual(
        expected.map((r) => ({
          id: r.id,
          method: r.method,
          path: r.path,
          status: r.status,
          durationMs: r.durationMs,
          errorCode: r.errorCode,
          credentialType: r.credentialType,
          credentialName: r.credentialName,
          createdAt: r.createdAt,
        })),
      );
    }
  });
});
