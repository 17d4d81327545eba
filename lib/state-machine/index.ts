/**
 * The one shape of every state machine in the tree (`lib/<domain>/state-machine.ts`): a table
 * event → rules, each rule `{ from: [...states], to }`. Most events have one rule; an event whose
 * target depends on where it starts (a "stay where you are" move) has one rule per target. A
 * (state, event) pair that no rule names is an illegal move, refused by `transition` with the
 * error the domain builds (its own conflict code and message).
 *
 * `to` is usually a state; a domain may carry more with it (custom domains: the state and the
 * action the integrator has to take), hence the third type parameter.
 *
 * Also the parsers of stored values (`memberParser`, `jsonParser`): a status column is text in
 * the database and becomes the state machine's type where the row is read (see below).
 */
import type { z } from "zod";

export interface TTransitionRule<S extends string, T = S> {
  readonly from: readonly S[];
  readonly to: T;
}

export type TTransitionTable<S extends string, E extends string, T = S> = {
  readonly [K in E]: readonly TTransitionRule<S, T>[];
};

function rulesOf<S extends string, E extends string, T>(
  table: TTransitionTable<S, E, T>,
  event: E,
): readonly TTransitionRule<S, T>[] {
  return Object.hasOwn(table, event) ? table[event] : [];
}

/** Where `event` leads from `from`, or undefined when the table has no such move. */
export function nextState<S extends string, E extends string, T>(
  table: TTransitionTable<S, E, T>,
  from: string,
  event: E,
): T | undefined {
  return rulesOf(table, event).find((rule) => (rule.from as readonly string[]).includes(from))?.to;
}

/** Whether the table lets `event` happen in `from`. */
export function canTransition<S extends string, E extends string, T>(
  table: TTransitionTable<S, E, T>,
  from: string,
  event: E,
): boolean {
  return rulesOf(table, event).some((rule) => (rule.from as readonly string[]).includes(from));
}

/** The states from which `event` is allowed, in table order (for error messages). */
export function allowedFrom<S extends string, E extends string, T>(
  table: TTransitionTable<S, E, T>,
  event: E,
): S[] {
  return rulesOf(table, event).flatMap((rule) => [...rule.from]);
}

/** Whether no event leaves `state` (a final state of this table). */
export function isFinal<S extends string, E extends string, T>(
  table: TTransitionTable<S, E, T>,
  state: string,
): boolean {
  return (Object.keys(table) as E[]).every((event) => !canTransition(table, state, event));
}

/**
 * The move `event` makes from `from`; when the table has none, throws what `refuse` builds — the
 * domain's conflict error, with its own code and message.
 */
export function transition<S extends string, E extends string, T>(
  table: TTransitionTable<S, E, T>,
  from: string,
  event: E,
  refuse: (from: string, event: E, allowed: S[]) => Error,
): T {
  const rule = rulesOf(table, event).find((r) => (r.from as readonly string[]).includes(from));
  if (!rule) throw refuse(from, event, allowedFrom(table, event));
  return rule.to;
}

/**
 * Stored values. A status column (and any other column holding one of a closed list) is text in
 * the database; it becomes its type once, where the row is read, by the parser that sits next to
 * the list: `export const parseDomainStatus = memberParser(DOMAIN_STATUSES, "custom_domains.status")`.
 * A value outside the list is a corrupt row, not the caller's fault: a plain Error naming the
 * column and the value (a 500). One Map lookup per call; the Map is built once, with the parser.
 */
export function memberParser<V extends string>(values: readonly V[], column: string): (value: string) => V {
  const members = new Map<string, V>(values.map((v) => [v, v]));
  return (value) => {
    const member = members.get(value);
    if (member === undefined)
      throw new Error(`Stored ${column} ${JSON.stringify(value)} is not one of: ${values.join(", ")}`);
    return member;
  };
}

/** Whether `value` is one of `values` (for input that may be anything, where a refusal is not a 500). */
export function memberGuard<V extends string>(values: readonly V[]): (value: unknown) => value is V {
  const members: ReadonlySet<string> = new Set(values);
  return (value): value is V => typeof value === "string" && members.has(value);
}

/**
 * The parser of a JSON column written in the shape of `schema` (the zod schema that defines it):
 * the typed value, or a plain Error naming the column and the first place it differs (a corrupt
 * row, a 500). The value itself is not in the message.
 */
export function jsonParser<S extends z.ZodType>(schema: S, column: string): (value: unknown) => z.output<S> {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join(".")}` : "";
    throw new Error(`Stored ${column} does not have its shape${at}: ${issue?.message ?? "invalid"}`);
  };
}
