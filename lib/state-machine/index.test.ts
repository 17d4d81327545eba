import { describe, expect, it } from "vitest";
import { allowedFrom, canTransition, isFinal, nextState, transition, type TTransitionTable } from "./index";

type TState = "open" | "held" | "closed";
type TEvent = "hold" | "close" | "touch";

const TABLE: TTransitionTable<TState, TEvent> = {
  hold: [{ from: ["open"], to: "held" }],
  close: [{ from: ["open", "held"], to: "closed" }],
  // a "stay" move: one rule per target
  touch: [
    { from: ["open"], to: "open" },
    { from: ["held"], to: "held" },
  ],
};

class Conflict extends Error {
  constructor(
    readonly from: string,
    readonly event: string,
    readonly allowed: string[],
  ) {
    super(`${event} not possible in ${from}`);
  }
}
const refuse = (from: string, event: TEvent, allowed: TState[]) => new Conflict(from, event, allowed);

describe("the shared state-machine helpers", () => {
  it("moves by the rule whose from lists the state", () => {
    expect(transition(TABLE, "open", "hold", refuse)).toBe("held");
    expect(transition(TABLE, "held", "close", refuse)).toBe("closed");
    expect(transition(TABLE, "open", "touch", refuse)).toBe("open");
    expect(transition(TABLE, "held", "touch", refuse)).toBe("held");
    expect(nextState(TABLE, "open", "close")).toBe("closed");
  });

  it("throws the error the domain builds, with the states the event is allowed from", () => {
    let thrown: unknown;
    try {
      transition(TABLE, "closed", "close", refuse);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Conflict);
    expect(thrown).toMatchObject({ from: "closed", event: "close", allowed: ["open", "held"] });
  });

  it("knows no other states, not even inherited property names", () => {
    for (const from of ["bogus", "constructor", "__proto__", "toString"]) {
      expect(nextState(TABLE, from, "hold")).toBeUndefined();
      expect(canTransition(TABLE, from, "close")).toBe(false);
      expect(() => transition(TABLE, from, "touch", refuse)).toThrow(Conflict);
    }
    expect(nextState(TABLE, "open", "toString" as TEvent)).toBeUndefined();
    expect(allowedFrom(TABLE, "constructor" as TEvent)).toEqual([]);
  });

  it("lists allowed states in table order and finds final states", () => {
    expect(allowedFrom(TABLE, "touch")).toEqual(["open", "held"]);
    expect(canTransition(TABLE, "held", "hold")).toBe(false);
    expect(isFinal(TABLE, "closed")).toBe(true);
    expect(isFinal(TABLE, "held")).toBe(false);
  });
});
