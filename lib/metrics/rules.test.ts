/**
 * deploy/prometheus-rules.yml names only series this service exposes: every `idv_…` name in an
 * alert's expression is a metric of the registry (a histogram's `_bucket`, `_sum` and `_count`
 * are its own), so a renamed metric cannot leave an alert that never fires.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { metrics } from "./registry";

const RULES = path.join(import.meta.dirname, "../../deploy/prometheus-rules.yml");

/** The expressions of the rules file (`expr:` on one line or as a block). */
function expressions(text: string): string[] {
  const lines = text.split("\n");
  const found: string[] = [];
  lines.forEach((line, i) => {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!match) return;
    if (match[2] !== "|") return void found.push(match[2]!);
    const indent = match[1]!.length;
    const block: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.trim() !== "" && next.search(/\S/) <= indent) break;
      if (next.trim() !== "") block.push(next.trim());
    }
    found.push(block.join(" "));
  });
  return found;
}

describe("deploy/prometheus-rules.yml", () => {
  it("names only metrics the service exposes", async () => {
    const text = fs.readFileSync(RULES, "utf8");
    const exprs = expressions(text);
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const exposed = new Set<string>();
    for (const metric of await metrics().registry.getMetricsAsJSON()) {
      exposed.add(metric.name);
      if (String(metric.type) === "histogram")
        for (const suffix of ["_bucket", "_sum", "_count"]) exposed.add(metric.name + suffix);
    }
    const named = exprs.flatMap((e) => e.match(/\bidv_[a-z0-9_]+/g) ?? []);
    expect(named.length).toBeGreaterThanOrEqual(10);
    expect(named.filter((name) => !exposed.has(name))).toEqual([]);
  });

  it("catches a name the service does not expose", () => {
    const exprs = expressions(
      "      - alert: X\n        expr: |\n          rate(idv_no_such_total[5m]) > 1\n",
    );
    expect(exprs).toEqual(["rate(idv_no_such_total[5m]) > 1"]);
  });
});
