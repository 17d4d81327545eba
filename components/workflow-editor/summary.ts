/**
 * One-line summaries of nodes for the canvas and the outline ("channel api · 4 claims ·
 * passport, se_bankid"), and the rules of condition editing (which operators apply to which
 * source, what kind of value each takes). Pure.
 */
import type { TWorkflowNode } from "@/lib/workflows/json";

export interface TConditionLike {
  source?: string;
  field?: string;
  op?: string;
  value?: unknown;
}

/** Operators per condition source, as lib/workflows/validate-config.ts accepts them. */
export const OPS_BY_SOURCE: Record<string, readonly string[]> = {
  claim: ["exists", "not_exists", "equals", "not_equals", "in", "not_in", "gte", "lte", "age_gte", "age_lt"],
  loa: ["equals", "not_equals", "in", "not_in", "gte", "lte"],
  provider: ["equals", "not_equals", "in", "not_in"],
};

export const OP_LABELS: Record<string, string> = {
  exists: "exists",
  not_exists: "does not exist",
  equals: "equals",
  not_equals: "does not equal",
  in: "is one of",
  not_in: "is none of",
  gte: "≥",
  lte: "≤",
  age_gte: "age ≥",
  age_lt: "age <",
};

export type TValueKind = "none" | "single" | "list" | "age";

export function valueKind(op: string | undefined): TValueKind {
  if (op === "exists" || op === "not_exists" || op === undefined) return "none";
  if (op === "in" || op === "not_in") return "list";
  if (op === "age_gte" || op === "age_lt") return "age";
  return "single";
}

function formatValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(formatValue).join(", ");
  if (value === undefined) return "…";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function conditionText(c: TConditionLike | undefined): string {
  if (!c || typeof c !== "object") return "no condition";
  const subject =
    c.source === "claim" ? (c.field ?? "claim ?") : c.source === "loa" ? "LoA" : (c.source ?? "?");
  const op = OP_LABELS[c.op ?? ""] ?? c.op ?? "?";
  return valueKind(c.op) === "none" ? `${subject} ${op}` : `${subject} ${op} ${formatValue(c.value)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** What the node does, in one short line. */
export function nodeSummary(node: TWorkflowNode): string {
  const config = (node.config ?? {}) as Record<string, unknown>;
  switch (node.type) {
    case "request":
      return "Entry: the integrator's request";
    case "response":
      return "End: the verification completes";
    case "verification": {
      const parts: string[] = [];
      if (typeof config.channel === "string") parts.push(`channel ${config.channel}`);
      const claims = Array.isArray(config.claims) ? config.claims.length : 0;
      parts.push(plural(claims, "claim"));
      if (config.mode === "age_verification") parts.push(`age ≥ ${formatValue(config.minimumAge)}`);
      const providers = config.providers as Record<string, { enabled?: boolean }> | undefined;
      if (providers && typeof providers === "object") {
        const on = Object.entries(providers).filter(([, o]) => o?.enabled !== false);
        const off = Object.entries(providers).filter(([, o]) => o?.enabled === false);
        if (on.length) parts.push(on.map(([id]) => id).join(", "));
        if (off.length) parts.push(`without ${off.map(([id]) => id).join(", ")}`);
      }
      return parts.join(" · ");
    }
    case "check-claim": {
      const checks = Array.isArray(config.claimChecks) ? (config.claimChecks as { field?: string }[]) : [];
      return checks.length ? `requires ${checks.map((c) => c.field ?? "?").join(", ")}` : "no claims listed";
    }
    case "check-min-loa":
      return `LoA ≥ ${formatValue(config.minLoa)}`;
    case "evaluate": {
      const conditions = Array.isArray(config.conditions) ? (config.conditions as TConditionLike[]) : [];
      const op = config.operator === "any" ? "any" : "all";
      const first =
        conditions.length === 1
          ? conditionText(conditions[0])
          : `${op} of ${plural(conditions.length, "condition")}`;
      return typeof config.reasonCode === "string" ? `${first} · else ${config.reasonCode}` : first;
    }
    case "if":
      return conditionText(config.condition as TConditionLike | undefined);
    default:
      return node.type;
  }
}
