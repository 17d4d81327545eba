/**
 * Prisma's model API for test fixtures and assertions only, while the tests move onto the data
 * layer (lib/db/kysely.ts): a client on its own small pool to DATABASE_URL, made on first use
 * and made anew when DATABASE_URL changed (a test file's own database). The application never
 * uses it (lib/db/boundary.test.ts).
 */
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../db/generated/client";

export { Prisma } from "../db/generated/client";

interface TTestClient {
  url: string;
  client: PrismaClient;
  pool: pg.Pool;
}

const globalForTests = globalThis as unknown as { idvTestPrisma?: TTestClient };

async function close(current: TTestClient): Promise<void> {
  await current.client.$disconnect();
  // the adapter does not end a pool it was given
  if (!current.pool.ended && !current.pool.ending) await current.pool.end();
}

/** The fixtures' Prisma client on DATABASE_URL. */
export function prisma(): PrismaClient {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForTests.idvTestPrisma;
  if (current?.url === url) return current.client;
  if (current) void close(current);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // a connection the server ends while idle (a test file's database dropped) is not a failure
  pool.on("error", () => undefined);
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  globalForTests.idvTestPrisma = { url, client, pool };
  return client;
}

/** Ends the fixtures' client (a test file dropping its own database). */
export async function closeTestPrisma(): Promise<void> {
  const current = globalForTests.idvTestPrisma;
  globalForTests.idvTestPrisma = undefined;
  if (current) await close(current);
}
