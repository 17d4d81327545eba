/**
 * A stored `provider_connections.adapter` outside the adapters' list is a corrupt row: reading it
 * (the runtime of sign-ins, the Operator API's JSON) fails with an error naming the column, instead
 * of passing an unknown adapter on (or reading as "not connected" with a misleading log line).
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { newId } from "../ids";
import { findProvider } from "../providers/catalog";
import { isolateTestDatabase } from "../testing/webhooks";
import { connectionAvailability } from "./runtime";
import { toConnectionJson } from "./service";

// connections are environment-wide: a corrupt row must not reach other files' listings
isolateTestDatabase();

const CORRUPT = /^Stored provider_connections\.adapter "ftp" is not one of: .*oidc.*wallet/;

describe("a stored adapter outside the list", () => {
  it("is a clear error where the row is read", async () => {
    const row = await kysely()
      .insertInto("providerConnections")
      .values({
        id: newId("con"),
        environment: "production",
        providerId: "fr_franceconnect",
        adapter: "ftp",
        enabled: true,
        settings: JSON.stringify({ issuer: "https://fc.example.test", clientId: "broker" }),
        updatedAt: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await expect(connectionAvailability("production", "fr_franceconnect")).rejects.toThrow(CORRUPT);
    expect(() => toConnectionJson(findProvider("fr_franceconnect")!, row)).toThrow(CORRUPT);
  });
});
