import { describe, expect, it } from "vitest";
import { allowedFrom, nextState } from "../state-machine";
import {
  ACTIVATION_EVENT_ACTORS,
  ACTIVATION_STATUSES,
  ACTIVATION_TRANSITIONS,
  activationStatusOf,
  parseTicketStatus,
  stateConflict,
  type TActivationEvent,
  STATE_CONFLICT_CODE,
  TICKET_STATUSES,
} from "./state-machine";

const nextStatus = (from: string, event: TActivationEvent) => nextState(ACTIVATION_TRANSITIONS, from, event);
const EVENTS = Object.keys(ACTIVATION_TRANSITIONS) as TActivationEvent[];

describe("activation transition table", () => {
  it("follows the spec's table", () => {
    expect(nextStatus("not_activated", "submit_direct")).toBe("activated");
    expect(nextStatus("not_activated", "submit_registration")).toBe("activation_requested");
    expect(nextStatus("activation_requested", "start_review")).toBe("activation_processing");
    expect(nextStatus("activation_processing", "approve")).toBe("activated");
    expect(nextStatus("activation_processing", "reject")).toBe("rejected");
    expect(nextStatus("not_activated", "submit_demo")).toBe("activation_processing");
    expect(nextStatus("activation_processing", "complete_demo")).toBe("activated");
    expect(nextStatus("not_activated", "submit_contract")).toBe("not_activated");
    expect(nextStatus("rejected", "submit_registration")).toBe("activation_requested");
  });

  it("refuses moves the table does not have", () => {
    for (const from of ["activated", "activation_requested", "activation_processing"]) {
      for (const event of [
        "submit_direct",
        "submit_registration",
        "submit_demo",
        "submit_contract",
      ] as const) {
        expect(nextStatus(from, event), `${from} ${event}`).toBeUndefined();
      }
    }
    expect(nextStatus("activation_requested", "approve")).toBeUndefined();
    expect(nextStatus("activation_requested", "reject")).toBeUndefined();
    expect(nextStatus("activated", "reject")).toBeUndefined();
    expect(nextStatus("rejected", "start_review")).toBeUndefined();
    expect(nextStatus("activated", "complete_demo")).toBeUndefined();
    expect(nextStatus("bogus", "submit_direct")).toBeUndefined();
  });

  it("is deterministic and only uses known states; tickets never go back to not_activated", () => {
    expect(Object.keys(ACTIVATION_EVENT_ACTORS).sort()).toEqual([...EVENTS].sort());
    for (const event of EVENTS) {
      const froms = allowedFrom(ACTIVATION_TRANSITIONS, event);
      expect(new Set(froms).size, event).toBe(froms.length);
      for (const from of froms) expect(ACTIVATION_STATUSES).toContain(from);
      for (const { to } of ACTIVATION_TRANSITIONS[event]) {
        expect(ACTIVATION_STATUSES).toContain(to);
        if (event !== "submit_contract") expect(TICKET_STATUSES).toContain(to);
      }
    }
    expect(allowedFrom(ACTIVATION_TRANSITIONS, "approve")).toEqual(["activation_processing"]);
  });

  it("builds conflicts with the configured code and the details", () => {
    const err = stateConflict("nope", [{ path: "ticket_id", message: "status is activated" }]);
    expect(err.code).toBe(STATE_CONFLICT_CODE);
    expect(err.details).toEqual([{ path: "ticket_id", message: "status is activated" }]);
  });
});

describe("stored activation statuses", () => {
  it("are a provider row's status, not_activated without a row", () => {
    for (const status of ACTIVATION_STATUSES) expect(activationStatusOf({ status })).toBe(status);
    expect(activationStatusOf(null)).toBe("not_activated");
    expect(activationStatusOf(undefined)).toBe("not_activated");
  });

  it("refuse a status outside the list instead of reading it as not_activated", () => {
    expect(() => activationStatusOf({ status: "pending" })).toThrow('Stored app_providers.status "pending"');
    expect(() => parseTicketStatus("not_activated")).toThrow(
      'Stored activation_tickets.status "not_activated"',
    );
    for (const status of TICKET_STATUSES) expect(parseTicketStatus(status)).toBe(status);
  });
});
