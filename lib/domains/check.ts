/**
 * One check of a custom domain, shared by POST …/verify and the background re-check.
 * Rules:
 * - a host that has since become one of the service's own is `host_reserved`, without asking DNS;
 * - otherwise every record is looked up (dns.ts) and the answers classified into one event;
 * - the row's new values — state by the state machine, status message, per-record results,
 *   lastCheckedAt, activatedAt, the claim's expiry (claims.ts, settings.ts) and the automatic re-check schedule
 *   (schedule.ts) — come from one function, so a verify and a background check can never disagree
 *   on what a result means;
 * - whether another app's active domain holds a host is decided in the write transaction, under
 *   the hosts' locks (claims.ts settleInspection), and overrides what DNS says (`host_taken`).
 */
import type { Resolver } from "node:dns/promises";
import type { TCheckedValues, TCustomDomainRow } from "./store/domains";
import { checkDnsRecords, describeDnsChecks, toDnsCheckJson, type TDnsCheckJson } from "./dns";
import { GAVE_UP_MESSAGE, scheduleAfterCheck } from "./schedule";
import { parseDnsRecords } from "./serialize";
import { claimExpiry, reservedHosts } from "./settings";
import { transition } from "../state-machine";
import {
  classifyDnsChecks,
  DOMAIN_TRANSITIONS,
  illegalDomainTransition,
  type TDomainEvent,
  type TDomainTransition,
} from "./state-machine";

export interface TDomainInspection {
  event: TDomainEvent;
  message: string | undefined;
  /** per-record results; null when DNS was not asked (a host became reserved) */
  checks: TDnsCheckJson[] | null;
}

/** Asks DNS about the domain's records now (no database access). */
export async function inspectCustomDomain(
  domain: Pick<TCustomDomainRow, "webDomain" | "oidcDomain" | "dnsRecords">,
  resolver?: Resolver,
): Promise<TDomainInspection> {
  const reserved = reservedHosts();
  const taken = [domain.webDomain, domain.oidcDomain].filter((h) => reserved.has(h));
  if (taken.length > 0) {
    return {
      event: "host_reserved",
      message: `${taken.join(" and ")} ${taken.length > 1 ? "are" : "is"} now reserved by this service and cannot be activated; contact support.`,
      checks: null,
    };
  }
  const records = parseDnsRecords(domain.dnsRecords);
  const checks = await checkDnsRecords(records, resolver);
  const event = classifyDnsChecks(checks);
  return { event, message: describeDnsChecks(event, checks, records), checks: checks.map(toDnsCheckJson) };
}

export interface TCheckUpdate {
  move: TDomainTransition;
  data: TCheckedValues;
  gaveUp: boolean;
}

/** The row's new values after a check of `current` found `inspection`. */
export function checkUpdate(
  current: Pick<
    TCustomDomainRow,
    "status" | "activatedAt" | "autoChecks" | "pendingSince" | "claimExpiresAt"
  >,
  inspection: TDomainInspection,
  { automatic, now }: { automatic: boolean; now: Date },
): TCheckUpdate {
  const move = transition(DOMAIN_TRANSITIONS, current.status, inspection.event, illegalDomainTransition);
  const schedule = scheduleAfterCheck({ status: move.status, previous: current, automatic, now });
  const message = schedule.gaveUp
    ? [inspection.message, GAVE_UP_MESSAGE].filter(Boolean).join(" ")
    : inspection.message;
  return {
    move,
    gaveUp: schedule.gaveUp,
    data: {
      status: move.status,
      requiredAction: move.requiredAction,
      statusMessage: message ?? null,
      // JSON text for the jsonb column; SQL NULL when DNS was not asked
      dnsChecks: inspection.checks ? JSON.stringify(inspection.checks) : null,
      lastCheckedAt: now,
      activatedAt:
        move.status === "active" ? (current.status === "active" ? current.activatedAt : now) : null,
      nextCheckAt: schedule.nextCheckAt,
      autoChecks: schedule.autoChecks,
      pendingSince: schedule.pendingSince,
      // active: no longer a claim; leaving active starts a new claim period; otherwise it runs on
      // (checking again does not extend it)
      claimExpiresAt:
        move.status === "active"
          ? null
          : current.status === "active"
            ? claimExpiry(now)
            : (current.claimExpiresAt ?? claimExpiry(now)),
    },
  };
}
