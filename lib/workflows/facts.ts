/**
 * Claim facts: what a decision record keeps of a session's claim values so that a workflow can be
 * re-run over it later (what-if) without the values themselves.
 * Rules:
 * - presence is recorded as claim names; values never are. exists / not_exists, check-claim,
 *   LoA and provider conditions are therefore always answerable;
 * - a test of a value can be answered only when the session's own workflow asked the same
 *   question: when the session ends, every claim condition on a value found anywhere in that
 *   workflow (taken branches or not) is evaluated by the engine's own evaluateCondition and its
 *   boolean kept under conditionKey(); each age threshold it uses (age_gte / age_lt operands,
 *   age_verification minimumAge) keeps isAtLeast's answer (true, false, "undetermined" for a
 *   year-only birthdate, "invalid" for an unusable one) — booleans the engine computed, never the
 *   birthdate or the age;
 * - a recorded age answer is the one at the end of the session: re-runs do not age the person;
 * - a draft that tests a value the record cannot answer raises UnknownFact: the session is
 *   counted as "cannot tell", never guessed.
 */
import { z } from "zod";
import { jsonParser } from "../state-machine";
import { walkFromEntry } from "./graph";
import type { TWorkflowNode } from "./json";
import { isAtLeast } from "./engine/age";
import { evaluateCondition, isClaimPresent, type TClaimFacts } from "./engine/conditions";
import type { TRunnableWorkflow } from "./engine/nodes";
import { ZEvaluateConfig, ZIfConfig, ZVerificationConfig, type TCondition } from "./schema";

const ZAgeFact = z.union([z.boolean(), z.literal("undetermined"), z.literal("invalid")]);
export type TAgeFact = z.infer<typeof ZAgeFact>;

/** The facts of a decision record (`verification_decisions.facts`). */
export const ZRecordedFacts = z.object({
  /** isAtLeast(birthdate, years) per threshold used by the workflow; keys are the years */
  ages: z.record(z.string(), ZAgeFact).optional(),
  /** conditionKey → whether the condition held */
  conditions: z.record(z.string(), z.boolean()).optional(),
});
export type TRecordedFacts = z.infer<typeof ZRecordedFacts>;
/** `verification_decisions.facts` as read from its row. */
export const parseRecordedFacts = jsonParser(ZRecordedFacts, "verification_decisions.facts");

/** A claim condition answerable only from the claim's value. */
export function testsValue(condition: TCondition): boolean {
  return condition.source === "claim" && condition.op !== "exists" && condition.op !== "not_exists";
}

const isAgeOp = (condition: TCondition) => condition.op === "age_gte" || condition.op === "age_lt";

/** The same question gets the same key, whatever node asks it. */
export function conditionKey(condition: TCondition): string {
  return JSON.stringify([condition.field ?? null, condition.op, condition.value ?? null]);
}

/** Thrown by recorded facts that cannot answer a question. */
export class UnknownFact extends Error {
  constructor(readonly question: string) {
    super(`The decision record cannot tell: ${question}`);
    this.name = "UnknownFact";
  }
}

function nodeConditions(node: TWorkflowNode): TCondition[] {
  if (node.type === "evaluate") {
    const parsed = ZEvaluateConfig.safeParse(node.config ?? {});
    return parsed.success ? parsed.data.conditions : [];
  }
  if (node.type === "if") {
    const parsed = ZIfConfig.safeParse(node.config ?? {});
    return parsed.success ? [parsed.data.condition] : [];
  }
  return [];
}

function ageThresholds(nodes: readonly TWorkflowNode[], conditions: readonly TCondition[]): number[] {
  const years = new Set<number>();
  for (const c of conditions)
    if (isAgeOp(c) && typeof c.value === "number" && Number.isInteger(c.value) && c.value >= 0)
      years.add(c.value);
  for (const node of nodes) {
    if (node.type !== "verification") continue;
    const parsed = ZVerificationConfig.safeParse(node.config ?? {});
    if (parsed.success && parsed.data.mode === "age_verification" && parsed.data.minimumAge !== undefined)
      years.add(parsed.data.minimumAge);
  }
  return [...years].sort((a, b) => a - b);
}

/**
 * The facts to record for a session that ran `workflow` with the source's `claims`. Only
 * questions about present claims are recorded (an absent claim answers every value test false).
 */
export function collectFacts(
  workflow: TRunnableWorkflow,
  input: { providerId: string; claims: Record<string, unknown>; loa: number; now: Date },
): TRecordedFacts {
  const nodes = walkFromEntry(workflow.nodes, workflow.entryNodeId);
  const facts: TRecordedFacts = {};
  const conditions = nodes.flatMap((node) => nodeConditions(node).map((c) => ({ node, c })));

  const birthdate = Object.hasOwn(input.claims, "birthdate") ? input.claims.birthdate : undefined;
  if (isClaimPresent(birthdate)) {
    const ages: Record<string, TAgeFact> = {};
    for (const years of ageThresholds(
      nodes,
      conditions.map((x) => x.c),
    )) {
      const answer = isAtLeast(birthdate, years, input.now);
      ages[String(years)] = answer === undefined ? "invalid" : answer;
    }
    if (Object.keys(ages).length > 0) facts.ages = ages;
  }

  const answers: Record<string, boolean> = {};
  for (const { node, c } of conditions) {
    if (!testsValue(c) || isAgeOp(c) || c.field === undefined) continue;
    const value = Object.hasOwn(input.claims, c.field) ? input.claims[c.field] : undefined;
    if (!isClaimPresent(value)) continue;
    try {
      answers[conditionKey(c)] = evaluateCondition(
        c,
        { providerId: input.providerId, claims: input.claims, loa: input.loa, now: input.now },
        node.id,
      );
    } catch {
      // a malformed condition: the engine fails the session on it; nothing to record
    }
  }
  if (Object.keys(answers).length > 0) facts.conditions = answers;
  return facts;
}

/** The engine's view of recorded facts: answers what was recorded, throws UnknownFact otherwise. */
export function factsFromRecord(recorded: TRecordedFacts): TClaimFacts {
  return {
    holds(condition) {
      const answer = recorded.conditions?.[conditionKey(condition)];
      if (answer === undefined)
        throw new UnknownFact(
          `claim ${condition.field ?? "?"} ${condition.op} ${JSON.stringify(condition.value)}`,
        );
      return answer;
    },
    atLeast(years) {
      const answer = recorded.ages?.[String(years)];
      if (answer === undefined) throw new UnknownFact(`whether the person is at least ${years}`);
      return answer === "invalid" ? undefined : answer;
    },
  };
}
