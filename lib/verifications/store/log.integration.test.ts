/**
 * lib/verifications/store/log.ts against PostgreSQL: every read gives the rows, in the order and
 * with the count, that the Prisma queries it replaced gave (those queries are repeated here), for
 * each filter of the list — an empty status list included — and for a session's activity.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { prisma } from "../../testing/prisma";
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

/** The where clause the list had on Prisma. */
function prismaWhere(f: TVerificationFilter) {
  return {
    workspaceId: f.workspaceId,
    environment: f.environment,
    untouched: false,
    ...(f.status ? { status: { in: [...f.status] } } : {}),
    ...(f.providerId ? { providerId: f.providerId } : {}),
    ...(f.appId ? { appId: f.appId } : {}),
    ...(f.from || f.to
      ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } }
      : {}),
  };
}

describe("the verification log's store", () => {
  it("lists and counts the sessions of each filter as Prisma did, newest first, with the app's name", async () => {
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
    const filters: TVerificationFilter[] = [
      scope,
      { ...scope, status: ["cancelled", "failed"] },
      { ...scope, status: [] },
      { ...scope, providerId: "passport" },
      { ...scope, appId: t.app.clientId },
      { ...scope, appId: "app_unknown" },
      { ...scope, from: later },
      { ...scope, to: later },
      { ...scope, environment: "production" },
    ];
    for (const filter of filters) {
      const where = prismaWhere(filter);
      const total = await countVerifications(kysely(), filter);
      expect(total).toBe(await prisma().verification.count({ where }));
      for (const [limit, offset] of [
        [20, 0],
        [2, 1],
      ] as const) {
        const rows = await listVerifications(kysely(), filter, limit, offset);
        const expected = await prisma().verification.findMany({
          where,
          include: { app: { select: { name: true } } },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: limit,
          skip: offset,
        });
        expect(rows).toEqual(expected);
      }
    }
    expect(await countVerifications(kysely(), scope)).toBe(4);
    expect((await listVerifications(kysely(), scope, 20, 0)).map((v) => v.id)).toEqual([...ids].reverse());
  });

  it("reads a session and its activity as Prisma did", async () => {
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
    const id = (await t.start({ providerId: "passport" })).body.verificationId as string;
    await t.status(id);
    await t.simulate(id, { outcome: "success" });
    await flushRequestLog();

    expect(await readVerificationWithApp(kysely(), id)).toEqual(
      await prisma().verification.findUnique({ where: { id }, include: { app: { select: { name: true } } } }),
    );
    expect(await readVerificationWithApp(kysely(), "ver_unknown")).toBeUndefined();

    const events = await listEvents(kysely(), id);
    expect(events.length).toBeGreaterThan(2);
    expect(events).toEqual(
      await prisma().verificationEvent.findMany({
        where: { verificationId: id },
        orderBy: { seq: "asc" },
        select: { id: true, type: true, createdAt: true, payload: true },
      }),
    );

    const deliveries = await listDeliveries(kysely(), id);
    expect(deliveries.map((d) => d.eventType)).toEqual(["verification.created", "verification.completed"]);
    const prismaDeliveries = await prisma().webhookDelivery.findMany({
      where: { event: { verificationId: id } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(deliveries).toEqual(
      prismaDeliveries.map((d) => ({
        id: d.id,
        eventId: d.eventId,
        eventType: d.eventType,
        status: d.status,
        attemptCount: d.attemptCount,
        lastStatus: d.lastStatus,
        createdAt: d.createdAt,
        deliveredAt: d.deliveredAt,
        nextAttemptAt: d.nextAttemptAt,
      })),
    );

    const scope = { workspaceId: t.ws.workspaceId, environment: "sandbox" } as const;
    for (const limit of [500, 2]) {
      const requests = await listRequests(kysely(), scope, id, limit);
      const expected = await prisma().apiRequestLog.findMany({
        where: { verificationId: id, ...scope },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: limit,
      });
      expect(expected.length).toBe(Math.min(limit, 3));
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
