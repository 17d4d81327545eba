/**
 * Readiness on the real database: the migrations this checkout ships are the ones the test
 * database has applied, the ping answers, and a database that does not answer (nothing listens)
 * makes the instance not ready — with the reason, and nothing more.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { createDb, kysely } from "../db/client";
import { shippedMigrationNames } from "./migrations";
import { processChecks, readinessProbe } from "./readiness";
import { appliedMigrationNames, pingDatabase } from "./store";

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("readiness on the database", () => {
  it("finds every migration of prisma/migrations applied, and is ready", async () => {
    const shipped = shippedMigrationNames();
    expect(shipped.length).toBeGreaterThan(20);
    expect(shipped).toContain("20261129090000_connection_test_hand_offs");
    const applied = await appliedMigrationNames(kysely());
    expect(shipped.filter((name) => !applied.includes(name))).toEqual([]);
    expect(await readinessProbe(processChecks(() => true)).readiness()).toEqual({ ready: true });
  });

  it("is not ready when the database cannot be reached", async () => {
    const port = await closedPort();
    const down = createDb(`postgresql://idv:idv@127.0.0.1:${port}/idv`, 1);
    try {
      const probe = readinessProbe({
        ...processChecks(() => true),
        ping: () => pingDatabase(down),
      });
      expect(await probe.readiness()).toEqual({ ready: false, reason: "database: unreachable" });
    } finally {
      await down.destroy();
    }
  });
});
