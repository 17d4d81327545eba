/**
 * Background re-check of pending custom domains: task `custom_domain_recheck`, every minute.
 * Rules:
 * - due = status awaiting_dns or verifying and next_check_at ≤ now, oldest first; at most
 *   `batchSize` domains per claim and `maxBatches` claims per run, so one run does bounded work
 *   however many domains are waiting;
 * - a claim is one statement, UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED), that moves
 *   next_check_at to a lease time: instances running the task at once take disjoint rows without
 *   waiting for each other, and the rows of an instance that died are due again when the lease ends;
 * - DNS is asked outside any transaction, with the same lookups and verdicts as POST …/verify
 *   (check.ts); the result is written only while the row still holds this run's lease — a verify,
 *   a delete or a new configuration in the meantime wins;
 * - the state moves by the same table as a verify; the schedule (schedule.ts) grows the delay and
 *   stops after RECHECK_GIVE_UP_DAYS, saying so in the status message;
 * - an automatic check is audited (`custom_domain.checked`, actor system, trigger `schedule`) only
 *   when it changes the status, so a week of "still missing" does not flood the audit log;
 * - another app's domain that became active on a host first makes the check `host_taken`, under
 *   the same host locks as a verify (claims.ts);
 * - each run first deletes expired claims (claims.ts expireClaims, bounded batches), so they are
 *   not checked again.
 */
import type { Resolver } from "node:dns/promises";
import { recordAudit } from "../audit";
import { SYSTEM_ACTOR } from "../auth/actor";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import { kysely, type Db } from "../db/client";
import { logger } from "../log";
import { checkUpdate, inspectCustomDomain } from "./check";
import { expireClaims, settleInspection } from "./claims";
import { createResolver } from "./dns";
import { forgetCustomDomainHosts } from "./routing";
import { leaseDueDomains, readLeasedDomain, writeLeasedCheck } from "./store/domains";
import { inTransaction } from "../db/kysely";

export const RECHECK_BATCH_SIZE = 20;
export const RECHECK_MAX_BATCHES = 5;
/** Longer than a batch can take (lookups time out within seconds each). */
export const RECHECK_LEASE_MS = 10 * 60_000;
/** Domains looked up at the same time within a batch. */
const PARALLEL_CHECKS = 5;

export interface TRecheckOptions {
  now?: Date;
  batchSize?: number;
  maxBatches?: number;
  resolver?: Resolver;
}

export interface TRecheckSummary {
  /** domains whose result was written */
  checked: number;
  /** of those, the ones whose status changed */
  changed: number;
  activated: number;
  /** pending domains whose automatic checks ended with this run */
  gaveUp: number;
  /** claimed, but changed by someone else meanwhile (or failed): nothing written */
  skipped: number;
}

interface TOutcome {
  written: boolean;
  from?: string;
  to?: string;
  gaveUp?: boolean;
}
const SKIPPED: TOutcome = { written: false };

async function recheckOne(db: Db, id: string, lease: Date, now: Date, resolver: Resolver): Promise<TOutcome> {
  const domain = await readLeasedDomain(db, id, lease);
  if (!domain) return SKIPPED;
  const asked = await inspectCustomDomain(domain, resolver);
  const outcome = await inTransaction(db, async (tx) => {
    const { inspection } = await settleInspection(tx, domain, asked);
    const { move, data, gaveUp } = checkUpdate(domain, inspection, { automatic: true, now });
    // only while the row still holds this run's lease: a verify, delete or reconfiguration wins
    if (!(await writeLeasedCheck(tx, id, lease, data))) return null;
    if (move.status !== domain.status) {
      // every instance's cached OP issuer of these hosts (lib/oidc/provider/issuer.ts), on commit
      await publishInvalidation(tx, CACHE_TOPICS.customDomains);
      await recordAudit(tx, {
        workspaceId: domain.workspaceId,
        environment: domain.environment,
        actor: SYSTEM_ACTOR,
        action: "custom_domain.checked",
        targetType: "custom_domain",
        targetId: domain.id,
        data: {
          appId: domain.appId,
          event: inspection.event,
          from: domain.status,
          to: move.status,
          requiredAction: move.requiredAction,
          trigger: "schedule",
        },
      });
    }
    return { move, gaveUp };
  });
  if (!outcome) return SKIPPED;
  const { move, gaveUp } = outcome;
  // this process serves the new state at once; other instances within the routing cache's 30 s
  if (move.status !== domain.status) forgetCustomDomainHosts([domain.webDomain, domain.oidcDomain]);
  return { written: true, from: domain.status, to: move.status, gaveUp };
}

/** Runs `work` over `items`, at most `parallel` at a time. */
async function inPool<T, R>(items: T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
  return results;
}

/** Checks the due pending domains (bounded batches); returns what happened. */
export async function recheckDueDomains(db: Db, options: TRecheckOptions = {}): Promise<TRecheckSummary> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? RECHECK_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? RECHECK_MAX_BATCHES;
  const resolver = options.resolver ?? createResolver();
  const lease = new Date(now.getTime() + RECHECK_LEASE_MS);
  const summary: TRecheckSummary = { checked: 0, changed: 0, activated: 0, gaveUp: 0, skipped: 0 };

  for (let batch = 0; batch < maxBatches; batch++) {
    const ids = await leaseDueDomains(db, now, lease, batchSize);
    const outcomes = await inPool(ids, PARALLEL_CHECKS, (id) =>
      recheckOne(db, id, lease, now, resolver).catch((err: unknown) => {
        // the lease runs out and the domain is due again then
        logger.warn({ err, domainId: id }, "custom domain re-check failed");
        return SKIPPED;
      }),
    );
    for (const outcome of outcomes) {
      if (!outcome.written) {
        summary.skipped++;
        continue;
      }
      summary.checked++;
      if (outcome.from !== outcome.to) summary.changed++;
      if (outcome.to === "active") summary.activated++;
      if (outcome.gaveUp) summary.gaveUp++;
    }
    if (ids.length < batchSize) break;
  }
  return summary;
}

export async function recheckCustomDomainsTask(): Promise<void> {
  await expireClaims(kysely());
  const summary = await recheckDueDomains(kysely());
  if (summary.checked + summary.skipped > 0) logger.info(summary, "custom domains re-checked");
}
