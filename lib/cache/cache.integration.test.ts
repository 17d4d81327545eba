import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import pg from "pg";
import { kysely } from "@/lib/db/client";
import { randomToken } from "@/lib/ids";
import { waitFor } from "@/lib/testing/jobs";
import { DerivedCache } from "./derived-cache";
import { CACHE_CHANNEL, InvalidationListener, processListener, type TInvalidation } from "./listener";
import { publishInvalidation } from "./publish";
import type { TCacheTopic } from "./topics";
import { inTransaction } from "../db/kysely";
import { sql } from "kysely";

// Two listeners on the test database stand for two server instances: A is this process's own (the
// writer's: publishInvalidation also drops its entries at once), B another instance's. Each has
// its own cache of a value derived from a row of a table of this test. The topic is this test's
// own: a cache does not store a value loaded while any change of its topic arrived, so another
// test file rotating signing keys at the same moment would leave these caches empty.
const TOPIC = "cache_test_values" as TCacheTopic;
const TABLE = "cache_test_values";

let a: InvalidationListener;
let b: InvalidationListener;

async function readValue(key: string): Promise<{ value: string }> {
  const { rows } = await sql<{
    value: string;
  }>`SELECT value FROM ${sql.table(TABLE)} WHERE key = ${key}`.execute(kysely());
  return { value: rows[0]?.value ?? "(none)" };
}

/** Writes the row without telling anyone: a cache that serves the old value is caching. */
async function writeSilently(key: string, value: string): Promise<void> {
  await sql`INSERT INTO ${sql.table(TABLE)} (key, value) VALUES (${key}, ${value})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value`.execute(kysely());
}

/** The change as a writer makes it: the row and the invalidation in one transaction. */
async function writeAndPublish(key: string, value: string, options: { rollback?: boolean } = {}) {
  class Rollback extends Error {}
  try {
    await inTransaction(kysely(), async (tx) => {
      await sql`UPDATE ${sql.table(TABLE)} SET value = ${value} WHERE key = ${key}`.execute(tx);
      await publishInvalidation(tx, TOPIC, key);
      if (options.rollback) throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
}

function cacheOn(listener: InvalidationListener) {
  return new DerivedCache<string>({ topic: TOPIC, ttlMs: 600_000, maxEntries: 100, listener });
}

const get = (cache: DerivedCache<string>, key: string) => cache.get(key, () => readValue(key));

/** Resolves once `listener` has received a notification for `key`. */
function heard(listener: InvalidationListener, key: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = listener.watch((event, change?: TInvalidation) => {
      if (event === "notification" && change?.key === key) {
        stop();
        resolve();
      }
    });
  });
}

/** Publishes a committed invalidation of a marker key and waits until `listener` heard it. */
async function commitMarker(listener: InvalidationListener): Promise<void> {
  const marker = `marker-${randomToken(12)}`;
  const arrived = heard(listener, marker);
  await publishInvalidation(kysely(), TOPIC, marker);
  await arrived;
}

async function ready(listener: InvalidationListener): Promise<void> {
  listener.start();
  await waitFor(async () => listener.ready);
}

beforeAll(async () => {
  await sql`CREATE TABLE IF NOT EXISTS ${sql.table(TABLE)} (key text PRIMARY KEY, value text NOT NULL)`.execute(
    kysely(),
  );
  const url = process.env.DATABASE_URL!;
  a = processListener()!;
  b = new InvalidationListener({ connectionString: url, reconnectMinMs: 50 });
  await Promise.all([ready(a), ready(b)]);
});

beforeEach(async () => {
  await Promise.all([ready(a), ready(b)]);
});

afterAll(async () => {
  await b?.close();
});

describe("derived caches across instances", () => {
  it("a change committed through one instance is seen by the other", async () => {
    const key = `k-${randomToken(12)}`;
    await writeSilently(key, "v1");
    const [cacheA, cacheB] = [cacheOn(a), cacheOn(b)];
    expect(await get(cacheA, key)).toBe("v1");
    expect(await get(cacheB, key)).toBe("v1");
    // both serve what they hold while nobody publishes a change
    await writeSilently(key, "v2");
    expect(await get(cacheA, key)).toBe("v1");
    expect(await get(cacheB, key)).toBe("v1");

    await writeAndPublish(key, "v3");
    // the writer's own process drops it at once; the other instance when the commit reaches it
    expect(await get(cacheA, key)).toBe("v3");
    await waitFor(async () => (await get(cacheB, key)) === "v3");
    expect(cacheB.peek(key)).toBe("v3");
  });

  it("a rolled-back change does not invalidate", async () => {
    const key = `k-${randomToken(12)}`;
    await writeSilently(key, "v1");
    const cacheB = cacheOn(b);
    expect(await get(cacheB, key)).toBe("v1");
    await writeSilently(key, "v2");

    await writeAndPublish(key, "rolled back", { rollback: true });
    // notifications arrive in commit order: once a later commit's has arrived, the rolled-back
    // one would have too
    await commitMarker(b);
    expect(cacheB.peek(key)).toBe("v1");
    expect(await get(cacheB, key)).toBe("v1");
  });

  it("a lost listener connection drops the cache; until it is back, reads go to the database", async () => {
    const key = `k-${randomToken(12)}`;
    await writeSilently(key, "v1");
    const [cacheA, cacheB] = [cacheOn(a), cacheOn(b)];
    expect(await get(cacheA, key)).toBe("v1");
    expect(await get(cacheB, key)).toBe("v1");
    await writeSilently(key, "v2");

    const lost = new Promise<void>((resolve) => {
      const stop = b.watch((event) => {
        if (event === "lost") {
          stop();
          resolve();
        }
      });
    });
    const killer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await killer.connect();
    try {
      const { rows } = await killer.query<{ ended: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1",
        [b.name],
      );
      expect(rows).toEqual([{ ended: true }]);
    } finally {
      await killer.end();
    }
    await lost;
    expect(cacheB.size).toBe(0);
    // the other instance's listener is untouched
    expect(cacheA.peek(key)).toBe("v1");

    await waitFor(async () => b.ready);
    expect(await get(cacheB, key)).toBe("v2");
    expect(cacheB.peek(key)).toBe("v2");
    // and it hears changes again
    await writeAndPublish(key, "v3");
    await waitFor(async () => (await get(cacheB, key)) === "v3");
  });

  it("a notification it cannot read drops everything", async () => {
    const key = `k-${randomToken(12)}`;
    await writeSilently(key, "v1");
    const cacheB = cacheOn(b);
    expect(await get(cacheB, key)).toBe("v1");
    await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${"not json"})`.execute(kysely());
    await waitFor(async () => cacheB.size === 0);
    expect(cacheB.peek(key)).toBeUndefined();
  });

  it("a value loaded while a change committed is returned but not kept", async () => {
    const key = `k-${randomToken(12)}`;
    await writeSilently(key, "v1");
    const cacheB = cacheOn(b);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let loads = 0;
    const slowRead = async () => {
      loads++;
      const read = await readValue(key);
      await gate;
      return read;
    };
    const pending = cacheB.get(key, slowRead);
    // a second reader of the same key shares the load
    const second = cacheB.get(key, slowRead);
    await waitFor(async () => loads === 1);
    const arrived = heard(b, key);
    await writeAndPublish(key, "v2");
    await arrived;
    release();
    expect(await pending).toBe("v1");
    expect(await second).toBe("v1");
    expect(loads).toBe(1);
    expect(cacheB.peek(key)).toBeUndefined();
    expect(await get(cacheB, key)).toBe("v2");
  });

  it("an entry is never served past the expiry its loader gave, nor beyond the size bound", async () => {
    const cache = new DerivedCache<string>({ topic: TOPIC, ttlMs: 600_000, maxEntries: 2, listener: b });
    const key = `k-${randomToken(12)}`;
    let loads = 0;
    const expired = async () => ({ value: `load ${++loads}`, expiresAt: Date.now() - 1 });
    expect(await cache.get(key, expired)).toBe("load 1");
    expect(await cache.get(key, expired)).toBe("load 2");

    const keys = [1, 2, 3].map((n) => `${key}-${n}`);
    for (const k of keys) await cache.get(k, async () => ({ value: k }));
    expect(cache.size).toBe(2);
    expect(cache.peek(keys[0]!)).toBeUndefined();
    expect(cache.peek(keys[2]!)).toBe(keys[2]);
  });
});
