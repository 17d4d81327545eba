import { describe, expect, it } from "vitest";
import {
  ACTIVATION_STATUSES,
  ACTIVATION_TRANSITIONS,
  allowedFrom,
  nextStatus,
  stateConflict,
  STATE_CONFLICT_CODE,
  TICKET_STATUSES,
} from "./state-machine";

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
    const keys = ACTIVATION_TRANSITIONS.map((t) => `${t.from}/${t.event}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const t of ACTIVATION_TRANSITIONS) {
      expect(ACTIVATION_STATUSES).toContain(t.from);
      expect(ACTIVATION_STATUSES).toContain(t.to);
      if (t.event !== "submit_contract") expect(TICKET_STATUSES).toContain(t.to);
    }
    expect(allowedFrom("approve")).toEqual(["activation_processing"]);
  });

  it("builds conflicts with the configured code and the details", () => {
    const err = stateConflict("nope", [{ path: "ticket_id", message: "status is activated" }]);
    expect(err.code).toBe(STATE_CONFLICT_CODE);
    expect(err.details).toEqual([{ path: "ticket_id", message: "status is activated" }]);
  });
});
