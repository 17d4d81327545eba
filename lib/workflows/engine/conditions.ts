/**
 * Evaluating workflow conditions ({source, field?, op, value?}) and claim presence.
 * Rules:
 * - a claim is present when the source gave a value that is not null, not a blank string and not
 *   an empty object or array — an empty value vouches for nothing;
 * - an absent claim satisfies only `not_exists`: every other op (not_equals and not_in included)
 *   is false, so a check never passes on a value the source did not vouch for;
 * - equals/in compare scalars exactly (type and case); gte/lte compare two numbers, or two
 *   strings as text (which orders ISO dates); mixed types are false;
 * - age_gte/age_lt read the birthdate (age.ts) and hold only when the birthdate settles them: a
 *   year-only birthdate straddling the threshold, or an unusable one, makes both false;
 * - `claim` and `loa` conditions need the verification's result; evaluating them before it (only
 *   possible in a workflow that bypassed validation) is a WorkflowDefect, never a silent false;
 * - with `facts` in the context (a recorded session re-run without its personal values, see
 *   lib/workflows/what-if.ts) presence still comes from `claims`, but every test of a value
 *   (equals … lte, age_gte/age_lt) is answered by the facts, which throw when they cannot tell.
 */
import type { TCondition } from "../schema";
import { isAtLeast } from "./age";
import { WorkflowDefect } from "./defect";

export interface TConditionContext {
  providerId: string;
  /** the claims the source vouched for; undefined before the verification node */
  claims?: Record<string, unknown>;
  /** the effective LoA; undefined before the verification node */
  loa?: number;
  now: Date;
  /** answers tests of claim values when `claims` holds only placeholders (what-if re-runs) */
  facts?: TClaimFacts;
}

/**
 * Stands in for the person's claim values when a session is re-run from its decision record:
 * presence is known (the record lists the claims present), values are not. Implementations
 * throw when the record cannot answer (lib/workflows/what-if.ts throws UnknownFact).
 */
export interface TClaimFacts {
  /** whether a claim condition on a value (equals, not_equals, in, not_in, gte, lte) holds for a present claim */
  holds(condition: TCondition): boolean;
  /** isAtLeast(birthdate, years) for a present birthdate, as it was when the session ended */
  atLeast(years: number): boolean | "undetermined" | undefined;
}

export function isClaimPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** A claim of the source, own properties only (claim names never reach the prototype). */
export function readClaim(claims: Record<string, unknown>, field: string): unknown {
  return Object.hasOwn(claims, field) ? claims[field] : undefined;
}

type TScalar = string | number | boolean;
type TOp = TCondition["op"];

const PROVIDER_OPS: readonly TOp[] = ["equals", "not_equals", "in", "not_in"];
const LOA_OPS: readonly TOp[] = [...PROVIDER_OPS, "gte", "lte"];

function isScalar(value: unknown): value is TScalar {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function operandList(condition: TCondition, nodeId: string): unknown[] {
  if (!Array.isArray(condition.value))
    throw new WorkflowDefect(`node "${nodeId}": ${condition.op} needs an array value`, nodeId);
  return condition.value;
}

function compare(actual: unknown, op: "gte" | "lte", operand: unknown): boolean {
  const bothNumbers = typeof actual === "number" && typeof operand === "number";
  const bothStrings = typeof actual === "string" && typeof operand === "string";
  if (!bothNumbers && !bothStrings) return false;
  return op === "gte" ? actual >= operand : actual <= operand;
}

/** Applies a scalar-valued op (equals … lte) to a present value. */
function applyValueOp(actual: unknown, condition: TCondition, nodeId: string): boolean {
  switch (condition.op) {
    case "equals":
      return isScalar(actual) && actual === condition.value;
    case "not_equals":
      return isScalar(actual) && actual !== condition.value;
    case "in":
      return isScalar(actual) && operandList(condition, nodeId).includes(actual);
    case "not_in":
      return isScalar(actual) && !operandList(condition, nodeId).includes(actual);
    case "gte":
    case "lte":
      return compare(actual, condition.op, condition.value);
    default:
      throw new WorkflowDefect(
        `node "${nodeId}": ${condition.op} does not apply to source ${condition.source}`,
        nodeId,
      );
  }
}

function ageThreshold(condition: TCondition, nodeId: string): number {
  const value = condition.value;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw new WorkflowDefect(`node "${nodeId}": ${condition.op} needs an age in whole years`, nodeId);
  return value;
}

function evaluateClaimCondition(
  condition: TCondition,
  claims: Record<string, unknown>,
  ctx: TConditionContext,
  nodeId: string,
): boolean {
  const field = condition.field;
  if (field === undefined)
    throw new WorkflowDefect(`node "${nodeId}": a claim condition needs a field`, nodeId);
  const value = readClaim(claims, field);
  const present = isClaimPresent(value);
  switch (condition.op) {
    case "exists":
      return present;
    case "not_exists":
      return !present;
    case "age_gte":
    case "age_lt": {
      if (field !== "birthdate")
        throw new WorkflowDefect(`node "${nodeId}": ${condition.op} applies to birthdate only`, nodeId);
      const threshold = ageThreshold(condition, nodeId);
      if (!present) return false;
      const atLeast = ctx.facts ? ctx.facts.atLeast(threshold) : isAtLeast(value, threshold, ctx.now);
      if (typeof atLeast !== "boolean") return false;
      return condition.op === "age_gte" ? atLeast : !atLeast;
    }
    default:
      if (!present) return false;
      return ctx.facts ? ctx.facts.holds(condition) : applyValueOp(value, condition, nodeId);
  }
}

export function evaluateCondition(condition: TCondition, ctx: TConditionContext, nodeId: string): boolean {
  switch (condition.source) {
    case "provider":
      if (!PROVIDER_OPS.includes(condition.op))
        throw new WorkflowDefect(
          `node "${nodeId}": ${condition.op} does not apply to source provider`,
          nodeId,
        );
      return applyValueOp(ctx.providerId, condition, nodeId);
    case "loa":
      if (ctx.loa === undefined)
        throw new WorkflowDefect(
          `node "${nodeId}": tests the level of assurance before the verification node`,
          nodeId,
        );
      if (!LOA_OPS.includes(condition.op))
        throw new WorkflowDefect(`node "${nodeId}": ${condition.op} does not apply to source loa`, nodeId);
      return applyValueOp(ctx.loa, condition, nodeId);
    case "claim":
      if (ctx.claims === undefined)
        throw new WorkflowDefect(`node "${nodeId}": tests a claim before the verification node`, nodeId);
      return evaluateClaimCondition(condition, ctx.claims, ctx, nodeId);
    default:
      throw new WorkflowDefect(
        `node "${nodeId}": unknown condition source "${String((condition as { source: unknown }).source)}"`,
        nodeId,
      );
  }
}

const MAX_LISTED_VALUES = 5;

function describeValue(value: unknown): string {
  if (Array.isArray(value)) {
    const shown = value.slice(0, MAX_LISTED_VALUES).map((v) => JSON.stringify(v));
    if (value.length > MAX_LISTED_VALUES) shown.push("…");
    return `[${shown.join(", ")}]`;
  }
  return JSON.stringify(value);
}

/**
 * The condition in words, for failure messages: built from the workflow's config only, never
 * from the person's claims (an age check must not reveal the birthdate in its message).
 */
export function describeCondition(condition: TCondition): string {
  const subject = condition.source === "claim" ? `claim ${condition.field ?? "?"}` : condition.source;
  return condition.value === undefined
    ? `${subject} ${condition.op}`
    : `${subject} ${condition.op} ${describeValue(condition.value)}`;
}
