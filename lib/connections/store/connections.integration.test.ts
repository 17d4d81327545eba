/**
 * lib/connections/store/connections.ts against PostgreSQL: its rows are whole (every column,
 * settings with their keys as stored — a claim mapping's `given_name` —, timestamps in UTC), it
 * sets the timestamps Prisma set, a write of a missing row says so (the
 * service answers what Prisma's P2025 gave), and the prune's "every provider but these" keeps
 * Prisma's `notIn: []` (every row) instead of an SQL error.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { newId } from "../../ids";
import { isolateTestDatabase } from "../../testing/webhooks";
import {
  deleteConnectionRow,
  insertConnection,
  insertConnectionIfAbsent,
  listConnectionRows,
  listConnectionRowsIn,
  listErroredConnections,
  otherProviderIds,
  readConnection,
  readConnectionById,
  updateConnection,
  updateConnectionOutcome,
} from "./connections";

// connections are environment-wide: this file's rows must not reach other files' listings
isolateTestDatabase();

const SETTINGS = {
  issuer: "https://op.example.test",
  clientId: "broker",
  claimMapping: { given_name: "given_name", family_name: "family_name" },
};

const values = (overrides: Partial<Parameters<typeof insertConnection>[2]> = {}) => ({
  adapter: "oidc",
  enabled: true,
  settings: SETTINGS,
  secretsEncrypted: null,
  resetState: false,
  ...overrides,
});

describe("the connections store", () => {
  it("writes and reads whole rows, settings keys as stored, timestamps set", async () => {
    const db = kysely();
    const before = Date.now();
    const created = await insertConnection(
      db,
      { id: newId("con"), environment: "production", providerId: "ch_swissid" },
      values(),
    );
    const expected = {
      id: created.id,
      environment: "production",
      providerId: "ch_swissid",
      adapter: "oidc",
      enabled: true,
      settings: SETTINGS,
      secretsEncrypted: null,
      lastError: null,
      lastErrorAt: null,
      lastSuccessAt: null,
      failureStreak: 0,
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    };
    expect(created).toEqual(expected);
    expect(await readConnection(db, "production", "ch_swissid")).toEqual(expected);
    expect(await readConnectionById(db, created.id)).toEqual(expected);
    expect(created.settings).toEqual(SETTINGS);
    expect(created.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(created.updatedAt).toEqual(created.createdAt);
    expect(created.failureStreak).toBe(0);
    expect(await readConnection(db, "sandbox", "ch_swissid")).toBeUndefined();
    expect(await readConnectionById(db, "con_missing")).toBeUndefined();

    // the runtime import's insert: nothing when the pair exists
    expect(
      await insertConnectionIfAbsent(
        db,
        { id: newId("con"), environment: "production", providerId: "ch_swissid" },
        { adapter: "wallet", enabled: false, settings: {}, secretsEncrypted: null },
      ),
    ).toBe(false);
    expect(await readConnection(db, "production", "ch_swissid")).toEqual(expected);

    await deleteConnectionRow(db, created.id);
  });

  it("records outcomes, resets the state on a new configuration, and says when the row is gone", async () => {
    const db = kysely();
    const row = await insertConnection(
      db,
      { id: newId("con"), environment: "production", providerId: "fr_franceconnect" },
      values(),
    );
    const failedAt = new Date(row.createdAt.getTime() + 1000);
    const failed = await updateConnectionOutcome(db, "production", "fr_franceconnect", {
      error: "discovery failed",
      now: failedAt,
    });
    expect(failed).toMatchObject({
      lastError: "discovery failed",
      lastErrorAt: failedAt,
      updatedAt: failedAt,
    });
    expect(failed).toEqual({
      ...row,
      lastError: "discovery failed",
      lastErrorAt: failedAt,
      updatedAt: failedAt,
    });
    expect(await readConnectionById(db, row.id)).toEqual(failed);

    // the same configuration again keeps the error; a changed one clears it and the streak
    const kept = await updateConnection(db, "production", "fr_franceconnect", values({ enabled: false }));
    expect(kept).toMatchObject({ enabled: false, lastError: "discovery failed", lastErrorAt: failedAt });
    expect(kept!.updatedAt.getTime()).toBeGreaterThan(row.updatedAt.getTime());
    const reset = await updateConnection(db, "production", "fr_franceconnect", values({ resetState: true }));
    expect(reset).toMatchObject({ enabled: true, lastError: null, lastErrorAt: null, failureStreak: 0 });

    const succeededAt = new Date(failedAt.getTime() + 1000);
    expect(
      await updateConnectionOutcome(db, "production", "fr_franceconnect", { error: null, now: succeededAt }),
    ).toMatchObject({ lastSuccessAt: succeededAt, failureStreak: 0, lastError: null });

    expect(await deleteConnectionRow(db, row.id)).toBe(true);
    // gone: the service answers 404 RESOURCE_NOT_FOUND, as Prisma's P2025 did
    expect(await deleteConnectionRow(db, row.id)).toBe(false);
    expect(await updateConnection(db, "production", "fr_franceconnect", values())).toBeUndefined();
    expect(
      await updateConnectionOutcome(db, "production", "fr_franceconnect", { error: null, now: succeededAt }),
    ).toBeUndefined();
  });

  it("lists by environment, the errored enabled ones in order, and every provider but the kept", async () => {
    const db = kysely();
    const make = async (environment: "sandbox" | "production", providerId: string, enabled = true) =>
      insertConnection(db, { id: newId("con"), environment, providerId }, values({ enabled }));
    const rows = [
      await make("production", "ch_swissid"),
      await make("production", "be_itsme"),
      await make("production", "fr_franceconnect", false),
      await make("sandbox", "ch_swissid"),
    ];
    const now = new Date();
    for (const [environment, providerId] of [
      ["production", "ch_swissid"],
      ["production", "be_itsme"],
      ["production", "fr_franceconnect"],
      ["sandbox", "ch_swissid"],
    ] as const) {
      await updateConnectionOutcome(db, environment, providerId, { error: "down", now });
    }

    const ids = (list: { id: string }[]) => list.map((r) => r.id).sort();
    expect(ids(await listConnectionRows(db, "production"))).toEqual(ids(rows.slice(0, 3)));
    expect(ids(await listConnectionRowsIn(db, ["sandbox", "production"]))).toEqual(ids(rows));
    expect(await listConnectionRowsIn(db, [])).toEqual([]);

    // enabled ones with an error, by environment (the enum's order: sandbox first) and provider
    expect((await listErroredConnections(db)).map((r) => [r.environment, r.providerId])).toEqual([
      ["sandbox", "ch_swissid"],
      ["production", "be_itsme"],
      ["production", "ch_swissid"],
    ]);

    // Prisma's `notIn: []` is every row
    expect(await otherProviderIds(db, "production", [])).toEqual([
      "be_itsme",
      "ch_swissid",
      "fr_franceconnect",
    ]);
    expect(await otherProviderIds(db, "production", ["ch_swissid"])).toEqual([
      "be_itsme",
      "fr_franceconnect",
    ]);

    for (const row of rows) await deleteConnectionRow(db, row.id);
  });
});
