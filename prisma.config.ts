/**
 * Prisma CLI configuration: migrations run on Prisma's WebAssembly schema engine through the
 * `pg` driver adapter, so `migrate` works offline (no native engine download).
 * Two upstream bugs (prisma/orm#27403) are handled here only:
 *  1. the engine cannot deserialize pg_catalog columns of type "char" (OID 18) and name (OID 19):
 *     query results report them as text (OID 25);
 *  2. the shadow database of `migrate dev` is created from discrete connection fields (a
 *     connectionString would override its database name) and dropped WITH (FORCE), with the
 *     idle-client errors of its terminated pool swallowed.
 */
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { defineConfig } from "prisma/config";

// No Prisma client is generated (lib/db/generated holds only the data layer's row types, from
// prisma-kysely), yet the CLI looks for a query-engine library before any command and downloads
// one when it finds none, which fails offline. No command run here loads it: its path names a
// file that exists (this one).
process.env.PRISMA_QUERY_ENGINE_LIBRARY ??= path.resolve("prisma.config.ts");

const TEXT_OID = 25;
const ResultProto = (await import("pg/lib/result.js")).default.prototype;
const originalAddFields = ResultProto.addFields;
ResultProto.addFields = function addFields(fields) {
  for (const field of fields) {
    if (field.dataTypeID === 18 || field.dataTypeID === 19) field.dataTypeID = TEXT_OID;
  }
  return originalAddFields.call(this, fields);
};

function connectionFields(url: string): pg.PoolConfig {
  const u = new URL(url);
  return {
    host: decodeURIComponent(u.hostname),
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
    // the CLI never disposes its pool; let the process exit once the work is done
    allowExitOnIdle: true,
    idleTimeoutMillis: 200,
  };
}

class MigrationAdapterFactory extends PrismaPg {
  constructor(private readonly fields: pg.PoolConfig) {
    super(fields);
  }

  override async connectToShadowDb() {
    const admin = await this.connect();
    const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
    await admin.executeScript(`CREATE DATABASE "${database}"`);
    const pool = new pg.Pool({ ...this.fields, database });
    pool.on("error", () => undefined);
    const shadow = await new PrismaPg(pool).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await pool.end().catch(() => undefined);
      await admin.executeScript(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.dispose();
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    // `npx idv db migrate` sets DATABASE_URL (starting the embedded server when none is configured)
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: run migrations with `npx idv db migrate`");
    return new MigrationAdapterFactory(connectionFields(url));
  },
});
