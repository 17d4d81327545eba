import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  allowedFrom,
  canTransition,
  isFinal,
  jsonParser,
  memberGuard,
  memberParser,
  nextState,
  transition,
  type TTransitionTable,
} from "./index";

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

describe("the parsers of stored values", () => {
  const STATES = ["open", "held", "closed"] as const;
  const parseState = memberParser(STATES, "things.status");
  const isState = memberGuard(STATES);

  it("returns a stored value of the list as it is", () => {
    for (const state of STATES) expect(parseState(state)).toBe(state);
  });

  it("refuses a value outside the list, naming the column and the value", () => {
    for (const value of ["", "Open", "open ", "bogus", "constructor", "__proto__", "toString"]) {
      expect(() => parseState(value)).toThrow(
        `Stored things.status ${JSON.stringify(value)} is not one of: open, held, closed`,
      );
    }
  });

  it("guards a value of any type", () => {
    expect(STATES.every(isState)).toBe(true);
    for (const value of ["bogus", "constructor", "", 1, null, undefined, ["open"], { open: true }]) {
      expect(isState(value)).toBe(false);
    }
  });

  const parseChecks = jsonParser(z.array(z.object({ id: z.string(), ok: z.boolean() })), "things.checks");

  it("returns a JSON value of the column's shape", () => {
    expect(parseChecks([{ id: "a", ok: true }])).toEqual([{ id: "a", ok: true }]);
    expect(parseChecks([])).toEqual([]);
  });

  it("refuses a JSON value of another shape, naming the column and where, not the value", () => {
    expect(() => parseChecks([{ id: "a", ok: "secret" }])).toThrow(
      /^Stored things\.checks does not have its shape at 0\.ok: /,
    );
    expect(() => parseChecks({ id: "a" })).toThrow(/^Stored things\.checks does not have its shape: /);
    expect(() => parseChecks(null)).toThrow(Error);
    let thrown: unknown;
    try {
      parseChecks([{ id: "a", ok: "secret" }]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(String(thrown)).not.toContain("secret");
  });
});
