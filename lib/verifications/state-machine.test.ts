import { describe, expect, it } from "vitest";
import { allowedFrom, canTransition, isFinal } from "../state-machine";
import {
  isTerminal,
  TERMINAL_STATES,
  VERIFICATION_STATES,
  VERIFICATION_TRANSITIONS,
  type TVerificationTransition,
} from "./state-machine";

const TRANSITIONS = Object.keys(VERIFICATION_TRANSITIONS) as TVerificationTransition[];
const TERMINAL = VERIFICATION_STATES.filter((s) => TERMINAL_STATES.has(s));
const OPEN = VERIFICATION_STATES.filter((s) => !TERMINAL_STATES.has(s));

describe("the verification state table", () => {
  it("has the four documented terminal states", () => {
    expect([...TERMINAL].sort()).toEqual(["cancelled", "completed", "expired", "failed"]);
    for (const state of VERIFICATION_STATES) {
      expect(isTerminal(state)).toBe(TERMINAL_STATES.has(state));
      // the explicit set is exactly the states no transition leaves
      expect(isFinal(VERIFICATION_TRANSITIONS, state)).toBe(TERMINAL_STATES.has(state));
    }
  });

  // every (terminal state, transition) pair: none may leave a terminal state
  const pairs = TERMINAL.flatMap((state) => TRANSITIONS.map((transition) => [state, transition] as const));
  it.each(pairs)("refuses %s → %s", (state, transition) => {
    expect(allowedFrom(VERIFICATION_TRANSITIONS, transition)).not.toContain(state);
    expect(canTransition(VERIFICATION_TRANSITIONS, state, transition)).toBe(false);
  });

  it("lets every open state end: cancel and expire are possible from each", () => {
    for (const state of OPEN) {
      expect(canTransition(VERIFICATION_TRANSITIONS, state, "cancel")).toBe(true);
      expect(canTransition(VERIFICATION_TRANSITIONS, state, "expire")).toBe(true);
    }
  });

  it("only names known states, and unknown states move nowhere", () => {
    for (const transition of TRANSITIONS) {
      for (const { from, to } of VERIFICATION_TRANSITIONS[transition]) {
        expect(VERIFICATION_STATES).toContain(to);
        for (const state of from) expect(VERIFICATION_STATES).toContain(state);
      }
      expect(canTransition(VERIFICATION_TRANSITIONS, "archived", transition)).toBe(false);
    }
  });
});
