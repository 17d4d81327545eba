/**
 * The README's configuration table lists exactly the variables of lib/config/schema.ts that
 * operators set (not those our tooling sets), each with the default the schema documents; a
 * default shown as one literal (`10`, `1,5,30`) is the value the schema actually gives.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from ".";
import { VARIABLES, ZEnvironment, type TVariableName } from "./schema";

interface TRow {
  name: string;
  default: string;
}

function readmeTable(): TRow[] {
  const readme = fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("Configuration\n"));
  if (!section) throw new Error("README.md has no Configuration section");
  return section
    .split("\n")
    .filter((line) => /^\| `[A-Z0-9_]+`/.test(line))
    .map((line) => {
      const cells = line.split("|").map((cell) => cell.trim());
      return { name: cells[1]!.replaceAll("`", ""), default: cells[2]! };
    });
}

function isName(name: string): name is TVariableName {
  return Object.hasOwn(VARIABLES, name);
}

const documented = Object.entries(VARIABLES)
  .filter(([, doc]) => !doc.setBy)
  .map(([name]) => name);

describe("README configuration table", () => {
  const rows = readmeTable();

  it("lists every variable operators set, once, and no other", () => {
    expect(rows.map((row) => row.name).sort()).toEqual([...documented].sort());
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
  });

  it("shows the default of lib/config/schema.ts", () => {
    for (const row of rows) {
      expect(isName(row.name), row.name).toBe(true);
      if (isName(row.name)) expect(row.default, row.name).toBe(VARIABLES[row.name].default);
    }
  });

  it("shows a literal default that is the value an unset variable gets", () => {
    const unset = ZEnvironment.parse({});
    // defaults worked out from other variables (PUBLIC_URL: http://localhost:$PORT)
    const derived: Partial<Record<TVariableName, unknown>> = { PUBLIC_URL: loadConfig({}).publicUrl };
    let checked = 0;
    for (const row of rows) {
      const literal = /^`([^`]+)`$/.exec(row.default)?.[1];
      if (!literal || !isName(row.name)) continue;
      const value = derived[row.name] ?? unset[row.name];
      const shown = Array.isArray(value) ? value.join(",") : String(value);
      expect(literal.replace("$PORT", String(unset.PORT)), row.name).toBe(shown);
      checked++;
    }
    expect(checked).toBeGreaterThan(25);
  });
});
