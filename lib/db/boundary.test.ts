/**
 * One way to reach the database (docs/architecture.md "Where new code goes"): statements are
 * built only in the stores (`lib/<domain>/store.ts`, or a `store/` folder) and the data layer
 * itself (lib/db); everything else hands a `Db` to a store. Nothing reaches Prisma's client (its
 * generated client, @prisma/client, the driver adapter, `$queryRaw`/`$executeRaw`), tests
 * included: Prisma is only the schema and the migrations (prisma.config.ts, which runs them, is
 * outside the scanned places). Tests build their fixtures with the same builder.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const SCANNED = [
  "lib",
  "app",
  "components",
  "proxy.ts",
  "proxy.integration.test.ts",
  "instrumentation.ts",
  "server",
];

/** Source files under SCANNED (generated code aside); tests too when `tests`. */
function sourceFiles({ tests }: { tests: boolean }): string[] {
  const files: string[] = [];
  const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.startsWith("lib/testing/");
  const walk = (relative: string) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    if (fs.statSync(absolute).isFile()) {
      if (tests || !isTest(relative)) files.push(relative);
      return;
    }
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (child !== "lib/db/generated") walk(child);
      } else if (/\.(ts|tsx|mjs|mts)$/.test(entry.name) && (tests || !isTest(child))) {
        files.push(child);
      }
    }
  };
  for (const place of SCANNED) walk(place);
  return files;
}

const isStore = (file: string) => /(^|\/)store\.ts$/.test(file) || /\/store\/[^/]+\.ts$/.test(file);
const isDataLayer = (file: string) => file.startsWith("lib/db/");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

// building a statement: Kysely's query starts and raw SQL
const BUILDS = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`/;
// Prisma's client: its generated client, the packages, raw Prisma SQL
const PRISMA =
  /from\s+["'](@prisma\/(client|adapter-pg)|[^"']*\/db\/generated\/client)["']|\$(queryRaw|executeRaw)(Unsafe)?\b/;

describe("the database boundary", () => {
  it("builds statements only in the stores and the data layer", () => {
    const outside = sourceFiles({ tests: false }).filter(
      (file) => !isStore(file) && !isDataLayer(file) && BUILDS.test(read(file)),
    );
    expect(outside).toEqual([]);
  });

  it("never reaches Prisma's client from the application", () => {
    const using = sourceFiles({ tests: false }).filter(
      (file) => !isDataLayer(file) && PRISMA.test(read(file)),
    );
    expect(using).toEqual([]);
    // in the data layer only the generated row types (prisma-kysely) are used
    const layer = sourceFiles({ tests: false }).filter(
      (file) => isDataLayer(file) && PRISMA.test(read(file)),
    );
    expect(layer).toEqual([]);
  });

  it("never reaches Prisma's client from tests either", () => {
    const using = sourceFiles({ tests: true }).filter(
      (file) => file !== "lib/db/boundary.test.ts" && PRISMA.test(read(file)),
    );
    expect(using).toEqual([]);
  });

  it("finds what it looks for", () => {
    expect(BUILDS.test('await db.selectFrom("apps").select("id")')).toBe(true);
    expect(BUILDS.test("const rows = await sql<{ n: number }>`SELECT 1`")).toBe(true);
    expect(PRISMA.test('import { PrismaClient } from "../db/generated/client";')).toBe(true);
    expect(PRISMA.test('import type { Verification } from "../db/generated/client";')).toBe(true);
    expect(PRISMA.test('import { PrismaPg } from "@prisma/adapter-pg";')).toBe(true);
    expect(PRISMA.test("await db.$executeRaw`DELETE FROM x`")).toBe(true);
    expect(PRISMA.test('import { kysely } from "../db/client";')).toBe(false);
    expect(PRISMA.test('import type { Verification } from "../db/rows";')).toBe(false);
    expect(isStore("lib/idempotency/store.ts")).toBe(true);
    expect(isStore("lib/verifications/store/sessions.ts")).toBe(true);
    expect(isStore("lib/idempotency/index.ts")).toBe(false);
  });
});
