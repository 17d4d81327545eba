/**
 * Claims on custom-domain hosts: nobody can reserve a host they do not control.
 * Rules:
 * - only an ACTIVE custom domain (of an app that is not deleted) holds its hosts. Configuring a
 *   host such a domain uses, in either role, is refused with 400 DOMAIN_IN_USE naming the field.
 *   That tells only that the host is served by this service, which anyone sees already (its CNAME
 *   points at the edge, it has a certificate and answers with the hosted pages or OIDC discovery);
 *   it never names the app or workspace;
 * - a domain that is not active is a claim: any number of apps, in any workspace, may claim the
 *   same host, and a claim is invisible to everyone else (no error, no oracle);
 * - the first claim whose DNS proves ownership (every record right, the TXT record with its own
 *   token) becomes active. Every later check of another claim on one of those hosts — verify or
 *   the background re-check — ends in `host_taken` (invalid, contact_support, the status message
 *   says why), and verify answers 400 DOMAIN_IN_USE naming the field;
 * - configures and checks serialise per host name with transaction-scoped advisory locks, taken
 *   in sorted order before any row lock (so two requests cannot deadlock); the partial unique
 *   indexes over active domains (migration 20261126020000_custom_domain_claims) are the backstop;
 * - a claim expires claimTtlMs() (IDV_DOMAIN_CLAIM_DAYS, default 7; `claimExpiry` of settings.ts)
 *   after it was made or after its domain left `active`; the re-check job (custom_domain_recheck) deletes expired claims in
 *   bounded batches (FOR UPDATE SKIP LOCKED, so instances take disjoint rows and never wait for a
 *   verify in progress), each audited as `custom_domain.expired`;
 * - a domain of a deleted app is released (deleted, audited `custom_domain.released`) when its
 *   hosts are configured or checked by another app — deleting an app removes its domain anyway.
 */
import { recordAudit } from "../audit";
import { SYSTEM_ACTOR } from "../auth/actor";
import { inTransaction, type Db } from "../db/kysely";
import { ApiError } from "../errors";
import { logger } from "../log";
import type { TDomainInspection } from "./check";
import {
  deleteDomain,
  deleteDomains,
  lockExpiredClaims,
  lockHostName,
  readDomainsOnHosts,
} from "./store/claims";

export const EXPIRE_BATCH_SIZE = 100;
export const EXPIRE_MAX_BATCHES = 10;

/** Transaction-scoped advisory locks on host names, in sorted order. */
export async function lockHosts(db: Db, hosts: readonly string[]): Promise<void> {
  for (const host of [...new Set(hosts)].sort()) await lockHostName(db, host);
}

export interface THostHolder {
  id: string;
  appId: string;
  webDomain: string;
  oidcDomain: string;
  status: string;
}

/**
 * The domains of other apps that use one of `hosts` in either role, after releasing those of
 * deleted apps. Call with the hosts locked (lockHosts).
 */
export async function otherDomainsOn(
  db: Db,
  hosts: readonly string[],
  { exceptId, requestId }: { exceptId?: string; requestId?: string } = {},
): Promise<THostHolder[]> {
  const rows = await readDomainsOnHosts(db, hosts, exceptId || undefined);
  const live: THostHolder[] = [];
  for (const row of rows) {
    if (row.deletedAt === null) {
      live.push({
        id: row.id,
        appId: row.appId,
        webDomain: row.webDomain,
        oidcDomain: row.oidcDomain,
        status: row.status,
      });
      continue;
    }
    // a deleted app's domain is no longer served; its hosts are free to claim
    // gone meanwhile: 404 RESOURCE_NOT_FOUND
    if (!(await deleteDomain(db, row.id))) throw resourceGone();
    await recordAudit(db, {
      workspaceId: row.workspaceId,
      environment: row.environment,
      actor: SYSTEM_ACTOR,
      action: "custom_domain.released",
      targetType: "custom_domain",
      targetId: row.id,
      ...(requestId ? { requestId } : {}),
      data: { appId: row.appId, webDomain: row.webDomain, oidcDomain: row.oidcDomain },
    });
  }
  return live;
}

/** The hosts among `hosts` that an active domain in `holders` uses, in the order of `hosts`. */
export function hostsHeld(holders: readonly THostHolder[], hosts: readonly string[]): string[] {
  const held = new Set(
    holders.filter((h) => h.status === "active").flatMap((h) => [h.webDomain, h.oidcDomain]),
  );
  return hosts.filter((h) => held.has(h));
}

export function hostTakenMessage(taken: readonly string[]): string {
  const names = taken.join(" and ");
  return `${names} ${taken.length > 1 ? "are" : "is"} in use by another app, whose DNS records proved control of the domain first. This domain cannot become active: delete it and configure other hosts, or contact support if you control the domain.`;
}

/**
 * Within the write transaction of a check: locks the domain's hosts and, when another app's
 * active domain uses one of them, turns the inspection into `host_taken` (DNS results kept).
 */
export async function settleInspection(
  tx: Db,
  domain: { id: string; webDomain: string; oidcDomain: string },
  inspection: TDomainInspection,
  requestId?: string,
): Promise<{ inspection: TDomainInspection; taken: string[] }> {
  const hosts = [domain.webDomain, domain.oidcDomain];
  await lockHosts(tx, hosts);
  if (inspection.event === "host_reserved") return { inspection, taken: [] };
  const holders = await otherDomainsOn(tx, hosts, {
    exceptId: domain.id,
    ...(requestId ? { requestId } : {}),
  });
  const taken = hostsHeld(holders, hosts);
  if (taken.length === 0) return { inspection, taken };
  return {
    inspection: { event: "host_taken", message: hostTakenMessage(taken), checks: inspection.checks },
    taken,
  };
}

/** The answer to a resource that is not (or no longer) there: 404 RESOURCE_NOT_FOUND. */
function resourceGone(): ApiError {
  return new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
}

export interface TExpireOptions {
  now?: Date;
  batchSize?: number;
  maxBatches?: number;
}

/** Deletes claims (domains that are not active) past their expiry, in bounded batches. */
export async function expireClaims(db: Db, options: TExpireOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? EXPIRE_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? EXPIRE_MAX_BATCHES;
  let expired = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await inTransaction(db, async (tx) => {
      const rows = await lockExpiredClaims(tx, now, batchSize);
      if (rows.length === 0) return 0;
      await deleteDomains(
        tx,
        rows.map((r) => r.id),
      );
      for (const row of rows) {
        await recordAudit(tx, {
          workspaceId: row.workspaceId,
          environment: row.environment,
          actor: SYSTEM_ACTOR,
          action: "custom_domain.expired",
          targetType: "custom_domain",
          targetId: row.id,
          data: {
            appId: row.appId,
            webDomain: row.webDomain,
            oidcDomain: row.oidcDomain,
            from: row.status,
            to: "unconfigured",
          },
        });
      }
      return rows.length;
    });
    expired += count;
    if (count < batchSize) break;
  }
  if (expired > 0) logger.info({ expired }, "expired custom domain claims deleted");
  return expired;
}
