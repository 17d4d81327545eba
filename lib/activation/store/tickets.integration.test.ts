/**
 * lib/activation/store/ against PostgreSQL: its rows are the rows Prisma read before the move
 * (every column of a ticket with its app's name and deletion, JSON documents with their keys as
 * stored, timestamps in UTC), in the order the queue and the history showed them; its writes
 * leave the rows Prisma's writes left (JSON as documents, not text; `updatedAt` set).
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { inTransaction } from "../../db/kysely";
import { newId } from "../../ids";
import { validValues } from "../../testing/activation";
import { makeApp, makeOperator, makeWorkspace } from "../../testing/factories";
import { bearer, call } from "../../testing/router";
import {
  insertProviderRow,
  lockApp,
  readAppScope,
  readCompanyInfo,
  readProviderStatus,
  readProviderStatuses,
  updateCompanyInfo,
  updateProviderRow,
} from "./apps";
import {
  countQueue,
  insertTicket,
  listEarlierTickets,
  listQueue,
  readTicket,
  readTicketStatus,
  readWorkspaceNames,
  updateTicketStatus,
} from "./tickets";
import { prisma } from "../../testing/prisma";

const withApp = { app: { select: { id: true, name: true, deletedAt: true } } } as const;

async function setup() {
  const ws = await makeWorkspace("Store workspace");
  const key = ws.keys.sandbox;
  const app = await makeApp(key, "sandbox", "Store app");
  const operator = await makeOperator();
  const submit = async (values = validValues("nl_digid")) => {
    const res = await call("POST", `/api/sandbox/v1/apps/${app.clientId}/activation`, {
      headers: bearer(key),
      body: { providers: { nl_digid: values } },
    });
    expect(res.status, res.text).toBe(200);
    return res.body[0].activation.id as string;
  };
  const act = async (ticketId: string, step: string, body?: unknown) => {
    const res = await call("POST", `/api/sandbox/v1/operator/activations/${ticketId}/${step}`, {
      headers: bearer(operator.operatorKey),
      body,
    });
    expect(res.status, res.text).toBe(200);
  };
  return { ws, key, app, submit, act };
}

describe("the activation store", () => {
  it("reads tickets, the queue and a ticket's history as Prisma did", async () => {
    const { ws, app, submit, act } = await setup();
    const first = await submit();
    await act(first, "review");
    await act(first, "reject", { reason: "Missing documents" });
    const second = await submit(validValues("nl_digid", { displayName: "Acme second" }));
    await act(second, "review");
    await act(second, "approve");

    const db = kysely();
    for (const id of [first, second]) {
      const row = await readTicket(db, id);
      expect(row).toEqual(await prisma().activationTicket.findUnique({ where: { id }, include: withApp }));
      expect(await readTicketStatus(db, id)).toBe(row?.status);
    }
    expect(await readTicket(db, "act_missing")).toBeUndefined();
    expect(await readTicketStatus(db, "act_missing")).toBeUndefined();

    const approved = (await readTicket(db, second))!;
    expect(approved.status).toBe("activated");
    expect(approved.app).toEqual({ id: app.clientId, name: "Store app", deletedAt: null });
    expect(await listEarlierTickets(db, approved)).toEqual(
      await prisma().activationTicket.findMany({
        where: { appId: app.clientId, providerId: "nl_digid", id: { not: second } },
        include: withApp,
        orderBy: [{ requestedAt: "desc" }, { id: "desc" }],
        take: 50,
      }),
    );

    // the queue: this environment, one status, optionally one provider, live apps, oldest first
    const filter = { environment: "sandbox" as const, status: "rejected", providerId: "nl_digid" };
    const where = { environment: "sandbox" as const, status: "rejected", app: { deletedAt: null } };
    const queue = await listQueue(db, filter, { limit: 100, offset: 0 });
    const prismaQueue = await prisma().activationTicket.findMany({
      where: { ...where, providerId: "nl_digid" },
      include: withApp,
      orderBy: [{ requestedAt: "asc" }, { id: "asc" }],
      take: 100,
    });
    const ours = <T extends { appId: string }>(rows: T[]) => rows.filter((r) => r.appId === app.clientId);
    expect(ours(queue)).toEqual(ours(prismaQueue));
    expect(ours(queue).map((t) => t.id)).toEqual([first]);
    expect(await countQueue(db, filter)).toBeGreaterThanOrEqual(1);
    const anyProvider = { ...filter, providerId: null };
    expect(await countQueue(db, anyProvider)).toBeGreaterThanOrEqual(await countQueue(db, filter));
    expect((await listQueue(db, anyProvider, { limit: 1, offset: 0 })).length).toBe(1);
    expect(await countQueue(db, { ...filter, providerId: "de_eid" })).toBe(
      await prisma().activationTicket.count({ where: { ...where, providerId: "de_eid" } }),
    );

    expect(await readWorkspaceNames(db, [ws.workspaceId, "ws_missing"])).toEqual(
      new Map([[ws.workspaceId, "Store workspace"]]),
    );
  });

  it("writes tickets, provider rows and company information as Prisma did", async () => {
    const { app } = await setup();
    const db = kysely();
    const scope = await readAppScope(db, app.clientId);
    expect(scope).toEqual(
      await prisma().app.findUnique({
        where: { id: app.clientId },
        select: { id: true, workspaceId: true, environment: true, deletedAt: true },
      }),
    );
    expect(await readAppScope(db, "app_missing")).toBeUndefined();

    // a ticket: the submitted document keeps its keys as stored, `submitted` is a document
    const id = newId("act");
    const requestedAt = new Date("2025-03-04T05:06:07.089Z");
    const submitted = { snake_key: "kept", nested: { camelCase: ["a", 1, true] } };
    await insertTicket(db, id, scope!, "nl_digid", {
      status: "activation_requested",
      submitted,
      requestedAt,
    });
    const stored = await prisma().activationTicket.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ submitted, demo: false, requestedAt, reviewStartedAt: null });
    expect(stored.updatedAt).toEqual(stored.createdAt);
    expect(await readTicket(db, id)).toEqual(
      await prisma().activationTicket.findUnique({ where: { id }, include: withApp }),
    );

    // a move only from the status it was read in
    const reviewStartedAt = new Date("2025-03-04T06:00:00.000Z");
    expect(await updateTicketStatus(db, id, { from: "rejected", to: "activated" })).toBe(false);
    const moved = { from: "activation_requested", to: "activation_processing", change: { reviewStartedAt } };
    await new Promise((resolve) => setTimeout(resolve, 5));
    const movedFrom = new Date();
    expect(await updateTicketStatus(db, id, moved)).toBe(true);
    const after = await prisma().activationTicket.findUniqueOrThrow({ where: { id } });
    expect(after).toMatchObject({ status: "activation_processing", reviewStartedAt, activatedAt: null });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(movedFrom.getTime()); // @updatedAt

    // provider rows: added with the columns' defaults, their state set; config is a document
    const key = { appId: app.clientId, providerId: "nl_digid" };
    await insertProviderRow(db, key, { enabled: false });
    expect(await prisma().appProvider.findUnique({ where: { appId_providerId: key } })).toMatchObject({
      enabled: false,
      status: "not_activated",
      config: {},
      currentTicketId: null,
      activatedAt: null,
    });
    const activatedAt = new Date("2025-03-04T07:00:00.000Z");
    const state = { status: "activated", currentTicketId: id, activatedAt, enabled: true, config: submitted };
    expect(await updateProviderRow(db, key, state)).toBe(true);
    expect(await prisma().appProvider.findUnique({ where: { appId_providerId: key } })).toMatchObject(state);
    expect(await readProviderStatus(db, app.clientId, "nl_digid")).toEqual({ status: "activated" });
    expect(await readProviderStatus(db, app.clientId, "de_eid")).toBeUndefined();
    expect(await updateProviderRow(db, { ...key, providerId: "de_eid" }, state)).toBe(false);
    const rows = await prisma().appProvider.findMany({ where: { appId: app.clientId } });
    expect(
      (await readProviderStatuses(db, app.clientId)).sort((a, b) => a.providerId.localeCompare(b.providerId)),
    ).toEqual(
      rows
        .map(({ providerId, status }) => ({ providerId, status }))
        .sort((a, b) => a.providerId.localeCompare(b.providerId)),
    );

    // company information: a document, read under the app's lock
    const companyInfo = { legalCompanyName: "Acme B.V.", registrationNumber: "KVK 1234" };
    expect(await updateCompanyInfo(db, app.clientId, companyInfo)).toBe(true);
    expect(await updateCompanyInfo(db, "app_missing", companyInfo)).toBe(false);
    expect((await prisma().app.findUniqueOrThrow({ where: { id: app.clientId } })).companyInfo).toEqual(
      companyInfo,
    );
    expect(await readCompanyInfo(db, app.clientId)).toEqual({ companyInfo });
    expect(await inTransaction(db, (tx) => lockApp(tx, app.clientId))).toEqual({ companyInfo });
    expect(await lockApp(db, "app_missing")).toBeUndefined();
  });
});
