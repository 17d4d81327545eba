/**
 * lib/activation/store/ against PostgreSQL: its rows are the rows as stored (every column of a
 * ticket with its app's name and deletion, JSON documents with their keys as stored, timestamps
 * in UTC), in the order the queue and the history showed them; its writes leave the rows Prisma's
 * writes left (JSON as documents, not text; `updatedAt` set).
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { countRows, inTransaction } from "../../db/kysely";
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

/** Ticket `id` as stored, with its app's id, name and deletion (read on their own, no join). */
async function storedTicket(id: string) {
  const db = kysely();
  const ticket = await db
    .selectFrom("activationTickets")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const app = await db
    .selectFrom("apps")
    .select(["id", "name", "deletedAt"])
    .where("id", "=", ticket.appId)
    .executeTakeFirstOrThrow();
  return { ...ticket, app };
}

/** The provider row of `key` as stored. */
const storedProvider = (key: { appId: string; providerId: string }) =>
  kysely()
    .selectFrom("appProviders")
    .selectAll()
    .where("appId", "=", key.appId)
    .where("providerId", "=", key.providerId)
    .executeTakeFirstOrThrow();

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
  it("reads tickets, the queue and a ticket's history as stored", async () => {
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
      expect(row).toEqual(await storedTicket(id));
      expect(await readTicketStatus(db, id)).toBe(row?.status);
    }
    expect(await readTicket(db, "act_missing")).toBeUndefined();
    expect(await readTicketStatus(db, "act_missing")).toBeUndefined();

    const approved = (await readTicket(db, second))!;
    expect(approved.status).toBe("activated");
    expect(approved.app).toEqual({ id: app.clientId, name: "Store app", deletedAt: null });
    // the app's one earlier ticket of the provider
    expect(await listEarlierTickets(db, approved)).toEqual([await storedTicket(first)]);

    // the queue: this environment, one status, optionally one provider, live apps, oldest first
    const filter = { environment: "sandbox" as const, status: "rejected", providerId: "nl_digid" };
    const queue = await listQueue(db, filter, { limit: 100, offset: 0 });
    const ours = <T extends { appId: string }>(rows: T[]) => rows.filter((r) => r.appId === app.clientId);
    expect(ours(queue)).toEqual([await storedTicket(first)]);
    expect(await countQueue(db, filter)).toBeGreaterThanOrEqual(1);
    const anyProvider = { ...filter, providerId: null };
    expect(await countQueue(db, anyProvider)).toBeGreaterThanOrEqual(await countQueue(db, filter));
    expect((await listQueue(db, anyProvider, { limit: 1, offset: 0 })).length).toBe(1);
    // every file's rejected de_eid tickets of live sandbox apps
    expect(await countQueue(db, { ...filter, providerId: "de_eid" })).toBe(
      await countRows(
        db
          .selectFrom("activationTickets")
          .where("environment", "=", "sandbox")
          .where("status", "=", "rejected")
          .where("providerId", "=", "de_eid")
          .where("appId", "in", db.selectFrom("apps").select("id").where("deletedAt", "is", null)),
      ),
    );

    expect(await readWorkspaceNames(db, [ws.workspaceId, "ws_missing"])).toEqual(
      new Map([[ws.workspaceId, "Store workspace"]]),
    );
  });

  it("writes tickets, provider rows and company information as Prisma did", async () => {
    const { ws, app } = await setup();
    const db = kysely();
    const scope = await readAppScope(db, app.clientId);
    expect(scope).toEqual({
      id: app.clientId,
      workspaceId: ws.workspaceId,
      environment: "sandbox",
      deletedAt: null,
    });
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
    const stored = await storedTicket(id);
    expect(stored).toMatchObject({ submitted, demo: false, requestedAt, reviewStartedAt: null });
    expect(stored.updatedAt).toEqual(stored.createdAt);
    expect(await readTicket(db, id)).toEqual({
      id,
      appId: app.clientId,
      workspaceId: ws.workspaceId,
      environment: "sandbox",
      providerId: "nl_digid",
      status: "activation_requested",
      submitted,
      demo: false,
      requestedAt,
      reviewStartedAt: null,
      activatedAt: null,
      rejectedAt: null,
      rejectionReason: null,
      reviewerUserId: null,
      createdAt: stored.createdAt,
      updatedAt: stored.createdAt,
      app: { id: app.clientId, name: "Store app", deletedAt: null },
    });

    // a move only from the status it was read in
    const reviewStartedAt = new Date("2025-03-04T06:00:00.000Z");
    expect(await updateTicketStatus(db, id, { from: "rejected", to: "activated" })).toBe(false);
    const moved = { from: "activation_requested", to: "activation_processing", change: { reviewStartedAt } };
    await new Promise((resolve) => setTimeout(resolve, 5));
    const movedFrom = new Date();
    expect(await updateTicketStatus(db, id, moved)).toBe(true);
    const after = await storedTicket(id);
    expect(after).toMatchObject({ status: "activation_processing", reviewStartedAt, activatedAt: null });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(movedFrom.getTime()); // @updatedAt

    // provider rows: added with the columns' defaults, their state set; config is a document
    const key = { appId: app.clientId, providerId: "nl_digid" };
    await insertProviderRow(db, key, { enabled: false });
    expect(await storedProvider(key)).toMatchObject({
      enabled: false,
      status: "not_activated",
      config: {},
      currentTicketId: null,
      activatedAt: null,
    });
    const activatedAt = new Date("2025-03-04T07:00:00.000Z");
    const state = { status: "activated", currentTicketId: id, activatedAt, enabled: true, config: submitted };
    expect(await updateProviderRow(db, key, state)).toBe(true);
    expect(await storedProvider(key)).toMatchObject(state);
    expect(await readProviderStatus(db, app.clientId, "nl_digid")).toEqual({ status: "activated" });
    expect(await readProviderStatus(db, app.clientId, "de_eid")).toBeUndefined();
    expect(await updateProviderRow(db, { ...key, providerId: "de_eid" }, state)).toBe(false);
    // the app's starter provider and the one added here
    expect(
      (await readProviderStatuses(db, app.clientId)).sort((a, b) => a.providerId.localeCompare(b.providerId)),
    ).toEqual([
      { providerId: "nl_digid", status: "activated" },
      { providerId: "passport", status: "activated" },
    ]);

    // company information: a document, read under the app's lock
    const companyInfo = { legalCompanyName: "Acme B.V.", registrationNumber: "KVK 1234" };
    expect(await updateCompanyInfo(db, app.clientId, companyInfo)).toBe(true);
    expect(await updateCompanyInfo(db, "app_missing", companyInfo)).toBe(false);
    expect(
      (
        await db
          .selectFrom("apps")
          .select("companyInfo")
          .where("id", "=", app.clientId)
          .executeTakeFirstOrThrow()
      ).companyInfo,
    ).toEqual(companyInfo);
    expect(await readCompanyInfo(db, app.clientId)).toEqual({ companyInfo });
    expect(await inTransaction(db, (tx) => lockApp(tx, app.clientId))).toEqual({ companyInfo });
    expect(await lockApp(db, "app_missing")).toBeUndefined();
  });
});
