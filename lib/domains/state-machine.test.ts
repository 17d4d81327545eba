import { describe, expect, it } from "vitest";
import { allowedFrom, transition } from "../state-machine";
import {
  classifyDnsChecks,
  DOMAIN_EVENTS,
  DOMAIN_STATUSES,
  DOMAIN_TRANSITIONS,
  IllegalDomainTransition,
  illegalDomainTransition,
  parseDomainStatus,
  parseRequiredAction,
  REQUIRED_ACTIONS,
  type TDomainEvent,
  type TRecordCheckState,
} from "./state-machine";

const CONFIGURED = ["awaiting_dns", "verifying", "active", "invalid"] as const;

const nextDomainState = (from: string, event: TDomainEvent) =>
  transition(DOMAIN_TRANSITIONS, from, event, illegalDomainTransition);

describe("nextDomainState", () => {
  it("configures only an unconfigured domain, awaiting DNS with add_cname", () => {
    expect(nextDomainState("unconfigured", "configure")).toEqual({
      status: "awaiting_dns",
      requiredAction: "add_cname",
    });
    for (const from of CONFIGURED) {
      expect(() => nextDomainState(from, "configure")).toThrow(IllegalDomainTransition);
    }
  });

  it("cannot verify or delete what is not configured", () => {
    for (const event of DOMAIN_EVENTS.filter((e) => e !== "configure")) {
      expect(() => nextDomainState("unconfigured", event)).toThrow(/not possible in state "unconfigured"/);
    }
  });

  it.each(CONFIGURED)("moves from %s by what DNS says", (from) => {
    expect(nextDomainState(from, "dns_missing")).toEqual({
      status: "awaiting_dns",
      requiredAction: "add_cname",
    });
    expect(nextDomainState(from, "dns_partial")).toEqual({ status: "verifying", requiredAction: "waiting" });
    expect(nextDomainState(from, "dns_complete")).toEqual({ status: "active", requiredAction: "none" });
    expect(nextDomainState(from, "dns_wrong")).toEqual({ status: "invalid", requiredAction: "retry" });
    expect(nextDomainState(from, "host_reserved")).toEqual({
      status: "invalid",
      requiredAction: "contact_support",
    });
    // another app proved ownership first: whatever DNS says, this domain cannot be active
    expect(nextDomainState(from, "host_taken")).toEqual({
      status: "invalid",
      requiredAction: "contact_support",
    });
    expect(nextDomainState(from, "delete")).toEqual({ status: "unconfigured", requiredAction: "none" });
  });

  it.each(CONFIGURED)("stays in %s with retry when DNS cannot be asked", (from) => {
    expect(nextDomainState(from, "dns_unreachable")).toEqual({ status: from, requiredAction: "retry" });
  });

  it("refuses unknown states", () => {
    expect(() => nextDomainState("exploded", "dns_complete")).toThrow(IllegalDomainTransition);
  });

  it("only uses the spec's states and actions", () => {
    expect(Object.keys(DOMAIN_TRANSITIONS).sort()).toEqual([...DOMAIN_EVENTS].sort());
    for (const event of DOMAIN_EVENTS) {
      const froms = allowedFrom(DOMAIN_TRANSITIONS, event);
      expect(new Set(froms).size, event).toBe(froms.length);
      for (const from of froms) expect(DOMAIN_STATUSES).toContain(from);
      for (const { to } of DOMAIN_TRANSITIONS[event]) {
        expect(DOMAIN_STATUSES).toContain(to.status);
        expect(REQUIRED_ACTIONS).toContain(to.requiredAction);
      }
    }
  });
});

describe("classifyDnsChecks", () => {
  const checks = (...states: TRecordCheckState[]) => states.map((state) => ({ state, required: true }));

  it("is complete when every required record is right", () => {
    expect(classifyDnsChecks(checks("ok", "ok", "ok"))).toBe("dns_complete");
    expect(classifyDnsChecks([...checks("ok"), { state: "missing", required: false }])).toBe("dns_complete");
  });

  it("is partial when some records are right and the others missing", () => {
    expect(classifyDnsChecks(checks("ok", "missing", "missing"))).toBe("dns_partial");
  });

  it("is missing when nothing is there", () => {
    expect(classifyDnsChecks(checks("missing", "missing", "missing"))).toBe("dns_missing");
  });

  it("is wrong as soon as one record has a wrong value, even when another lookup failed", () => {
    expect(classifyDnsChecks(checks("ok", "wrong", "ok"))).toBe("dns_wrong");
    expect(classifyDnsChecks(checks("unreachable", "wrong", "missing"))).toBe("dns_wrong");
  });

  it("is unreachable when a lookup failed and nothing is wrong", () => {
    expect(classifyDnsChecks(checks("ok", "ok", "unreachable"))).toBe("dns_unreachable");
    expect(classifyDnsChecks(checks("missing", "unreachable", "missing"))).toBe("dns_unreachable");
  });
});

describe("a domain row's status and action", () => {
  it("are read as the table's types", () => {
    for (const status of DOMAIN_STATUSES) expect(parseDomainStatus(status)).toBe(status);
    for (const action of REQUIRED_ACTIONS) expect(parseRequiredAction(action)).toBe(action);
  });

  it("are refused outside their lists, naming the column", () => {
    expect(() => parseDomainStatus("pending")).toThrow('Stored custom_domains.status "pending"');
    expect(() => parseRequiredAction("add_txt")).toThrow('Stored custom_domains.required_action "add_txt"');
  });
});
