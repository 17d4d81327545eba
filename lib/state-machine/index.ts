/**
 * The one shape of every state machine in the tree (`lib/<domain>/state-machine.ts`): a table
 * event → rules, each rule `{ from: [...states], to }`. Most events have one rule; an event whose
 * target depends on where it starts (a "stay where you are" move) has one rule per target. A
 * (state, event) pair that no rule names is an illegal move, refused by `transition` with the
 * error the domain builds (its own conflict code and message).
 *
 * `to` is usually a state; a domain may carry more with it (custom domains: the state and the
 * action the integrator has to take), hence the third type parameter.
 */

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
