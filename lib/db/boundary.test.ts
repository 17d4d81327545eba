/**
 * One way to reach the database (docs/architecture.md "Where new code goes"): statements are
 * built only in the stores (`lib/<domain>/store.ts`, or a `store/` folder) and the data layer
 * itself (lib/db); everything else hands a `Db` to a store. Files still on the old ways (the
 * Prisma client, `$queryRaw`/`$executeRaw`; the hand-written statements of lib/db/sql.ts and
 * statement.ts are gone, and importing them again is refused too) are listed in
 * lib/db/not-yet-moved.json while they move: no other file may take them up, and a listed file
 * that no longer uses them must leave the list, so it only shrinks.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import notYetMoved from "./not-yet-moved.json";

const root = path.resolve(__dirname, "../..");
const SCANNED = ["lib", "app", "components", "proxy.ts", "instrumentation.ts", "server"];

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    if (fs.statSync(absolute).isFile()) {
      files.push(relative);
      return;
    }
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (child !== "lib/db/generated" && child !== "lib/testing") walk(child);
      } else if (/\.(ts|tsx|mjs|mts)$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) {
        files.push(child);
      }
    }
  };
  for (const place of SCANNED) walk(place);
  return files;
}

const isStore = (file: string) => /(^|\/)store\.ts$/.test(file) || /\/store\/[^/]+\.ts$/.test(file);
const isDataLayer = (file: string) => file.startsWith("lib/db/");

// building a statement: Kysely's query starts and raw SQL
const BUILDS = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`/;
// the old ways: the Prisma client or the hand-written statements, imported; raw Prisma SQL
const OLD_IMPORT =
  /import\s+(type\s+)?(\{[^}]*\}|[\w*\s]+)\s+from\s+["'][^"']*\/db\/(client|sql|statement)["']/g;
const OLD_RAW = /\$(queryRaw|executeRaw)(Unsafe)?\b/;
// what lib/db/client.ts offers of the data layer: the pool's handle, its figures and its close
const LAYER_NAMES = new Set(["kysely", "poolStats", "closeDatabase"]);

function usesOldWays(text: string): boolean {
  for (const match of text.matchAll(OLD_IMPORT)) {
    if (match[3] !== "client") return true;
    const names = (match[2] ?? "")
      .replace(/[{}]/g, "")
      .split(",")
      .map(
        (name) =>
          name
            .trim()
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)[0] ?? "",
      )
      .filter(Boolean);
    if (names.length === 0 || names.some((name) => !LAYER_NAMES.has(name))) return true;
  }
  return OLD_RAW.test(text);
}

describe("the database boundary", () => {
  const files = sourceFiles();
  const listed = new Set<string>(notYetMoved.files);

  it("builds statements only in the stores and the data layer", () => {
    const outside = files.filter(
      (file) =>
        !isStore(file) &&
        !isDataLayer(file) &&
        !listed.has(file) &&
        BUILDS.test(fs.readFileSync(path.join(root, file), "utf8")),
    );
    expect(outside).toEqual([]);
  });

  it("lets only the listed files still use the Prisma client, sql.ts, statement.ts or raw Prisma SQL", () => {
    const using = files.filter(
      (file) => !isDataLayer(file) && usesOldWays(fs.readFileSync(path.join(root, file), "utf8")),
    );
    expect(using.filter((file) => !listed.has(file))).toEqual([]);
    // the list only shrinks: a file that moved leaves it
    expect([...listed].filter((file) => !using.includes(file))).toEqual([]);
  });

  it("finds what it looks for", () => {
    expect(BUILDS.test('await db.selectFrom("apps").select("id")')).toBe(true);
    expect(BUILDS.test("const rows = await sql<{ n: number }>`SELECT 1`")).toBe(true);
    expect(usesOldWays('import { getDb } from "../db/client";')).toBe(true);
    expect(usesOldWays('import type { Tx } from "../db/client";')).toBe(true);
    expect(usesOldWays('import { column } from "../../db/sql";')).toBe(true);
    expect(usesOldWays("await db.$executeRaw`DELETE FROM x`")).toBe(true);
    expect(usesOldWays('import { kysely } from "../db/client";\nconst db = kysely();')).toBe(false);
    expect(usesOldWays('import { kysely, kyselyOf } from "../db/client";')).toBe(true);
    expect(usesOldWays('import type { Db } from "../db/kysely";')).toBe(false);
    expect(isStore("lib/idempotency/store.ts")).toBe(true);
    expect(isStore("lib/verifications/store/sessions.ts")).toBe(true);
    expect(isStore("lib/idempotency/index.ts")).toBe(false);
  });
});
