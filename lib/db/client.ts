/**
 * The Prisma client of the application, on the `pg` driver adapter (no native engine).
 * One client per process; `DATABASE_URL` must be set (the `idv` launcher sets it, starting the
 * embedded server when none is configured).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as { idvPrisma?: PrismaClient };

export function createDb(url: string, max = Number(process.env.DATABASE_POOL_SIZE ?? 10)): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

export function getDb(): PrismaClient {
  if (!globalForDb.idvPrisma) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set; start the service with `npm run dev` or `npm start`");
    globalForDb.idvPrisma = createDb(url);
  }
  return globalForDb.idvPrisma;
}

export { Prisma } from "./generated/client";
