/**
 * Custom domains: one per app, hosted pages on webDomain and the OpenID Provider on oidcDomain.
 * Rules:
 * - the app is loaded with getOwnedApp first (404 unknown / deleted / other environment, 403
 *   another workspace's);
 * - configure (PUT) validates both hosts (hosts.ts), refuses when the app already has a custom
 *   domain (400 naming its hosts and status: delete it first) and when another app's ACTIVE domain
 *   uses a host (400 DOMAIN_IN_USE naming the field, without saying whose); other apps' claims
 *   that are not active do not matter (claims.ts); a host held by a deleted app is released;
 *   it only generates the DNS records: the status moves by checks alone (verify, background);
 * - verify looks the records up in real DNS outside the database transaction (a slow name server
 *   must not hold a connection), then applies the state machine's move to the row as it is then,
 *   sets lastCheckedAt and the per-record results and writes the audit entry in one short
 *   transaction (check.ts, shared with the background re-check); when another app's domain
 *   became active on a host first, the domain becomes invalid (`host_taken`) and verify answers
 *   400 DOMAIN_IN_USE naming the field;
 * - configure and every verify that leaves the domain pending (re)start the automatic re-checks
 *   (schedule.ts, recheck.ts), so a domain becomes active without anyone verifying again;
 * - delete removes the domain; the hosts stop being served at once on this instance;
 * - every state change is audited in the transaction that makes it.
 * Configures and checks of one host are serialised by transaction-scoped advisory locks on the
 * host names (claims.ts), because the partial unique indexes over active domains alone do not see
 * a webDomain equal to another row's oidcDomain.
 */
import type { WorkspaceActor } from "../auth/actor";
import { getOwnedApp } from "../apps/service";
import { recordAudit, workspaceAudit } from "../audit";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import type { Db } from "../db/client";
import { ApiError, invalidField } from "../errors";
import { newId, randomToken } from "../ids";
import { checkUpdate, inspectCustomDomain } from "./check";
import { hostsHeld, lockHosts, otherDomainsOn, settleInspection } from "./claims";
import { buildDnsRecords } from "./dns";
import { parseDomainPair } from "./hosts";
import { forgetCustomDomainHosts } from "./routing";
import { startRecheckSchedule } from "./schedule";
import { toCustomDomainJson, unconfiguredDomainJson, type TCustomDomainJson } from "./serialize";
import { claimExpiry, cnameTarget, reservedHosts } from "./settings";
import { deleteDomain } from "./store/claims";
import {
  insertDomain,
  isUniqueViolation,
  lockDomain,
  readDomainOfApp,
  writeCheck,
  type TCustomDomainRow,
} from "./store/domains";
import { transition } from "../state-machine";
import { DOMAIN_TRANSITIONS, illegalDomainTransition } from "./state-machine";
import type { Resolver } from "node:dns/promises";
import { inTransaction } from "../db/kysely";

/** The answer to a resource that is not (or no longer) there: 404 RESOURCE_NOT_FOUND. */
function resourceGone(): ApiError {
  return new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
}

function noDomain(clientId: string): ApiError {
  return new ApiError(
    "RESOURCE_NOT_FOUND",
    `App "${clientId}" has no custom domain; configure one with PUT /v1/apps/${clientId}/custom-domain`,
  );
}

export async function getCustomDomain(
  db: Db,
  auth: WorkspaceActor["auth"],
  clientId: string,
): Promise<TCustomDomainJson> {
  const app = await getOwnedApp(db, auth, clientId);
  const row = await readDomainOfApp(db, app.id);
  return row ? toCustomDomainJson(row) : unconfiguredDomainJson(cnameTarget());
}

function hostTaken(pair: { webDomain: string; oidcDomain: string }, taken: readonly string[]): ApiError {
  const field = taken.includes(pair.webDomain) ? "webDomain" : "oidcDomain";
  return invalidField(field, `${pair[field]} is already used by another app`, "DOMAIN_IN_USE");
}

export async function configureCustomDomain(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  input: { webDomain: string; oidcDomain: string },
): Promise<TCustomDomainJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const existing = await readDomainOfApp(db, app.id);
  if (existing) {
    throw new ApiError(
      "CUSTOM_DOMAIN_EXISTS",
      `App "${clientId}" already has a custom domain (${existing.webDomain}, ${existing.oidcDomain}) with status ${existing.status}; delete it first to configure another`,
    );
  }
  const pair = parseDomainPair(input, reservedHosts());
  const hosts = [pair.webDomain, pair.oidcDomain];
  await lockHosts(db, hosts);

  // only an active domain holds its hosts: other apps' claims may coexist with this one
  const taken = hostsHeld(await otherDomainsOn(db, hosts, { requestId: actor.requestId }), hosts);
  if (taken.length > 0) throw hostTaken(pair, taken);

  const move = transition(DOMAIN_TRANSITIONS, "unconfigured", "configure", illegalDomainTransition);
  const token = randomToken(32);
  const now = new Date();
  const schedule = startRecheckSchedule(now);
  let row: TCustomDomainRow;
  try {
    row = await insertDomain(db, {
      id: newId("dom"),
      appId: app.id,
      webDomain: pair.webDomain,
      oidcDomain: pair.oidcDomain,
      status: move.status,
      requiredAction: move.requiredAction,
      dnsRecords: JSON.stringify(buildDnsRecords(pair, cnameTarget(), token)),
      verificationToken: token,
      nextCheckAt: schedule.nextCheckAt,
      autoChecks: schedule.autoChecks,
      pendingSince: schedule.pendingSince,
      claimExpiresAt: claimExpiry(now),
    });
  } catch (err) {
    // only a concurrent configure of the same app gets here (hosts are locked above): the unique
    // violation of `app_id` (23505)
    if (isUniqueViolation(err)) {
      throw new ApiError(
        "CUSTOM_DOMAIN_EXISTS",
        `App "${clientId}" already has a custom domain; delete it first`,
      );
    }
    throw err;
  }
  await recordAudit(db, {
    ...workspaceAudit(actor),
    targetType: "custom_domain",
    action: "custom_domain.configured",
    targetId: row.id,
    data: {
      appId: app.id,
      webDomain: row.webDomain,
      oidcDomain: row.oidcDomain,
      from: "unconfigured",
      to: row.status,
    },
  });
  forgetCustomDomainHosts(hosts);
  return toCustomDomainJson(row);
}

/**
 * Checks the records in DNS and moves the state accordingly. Takes the client (not a request
 * transaction): the lookups happen before the short write transaction.
 */
export async function verifyCustomDomain(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  resolver?: Resolver,
): Promise<TCustomDomainJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const domain = await readDomainOfApp(db, app.id);
  if (!domain) throw noDomain(clientId);
  const asked = await inspectCustomDomain(domain, resolver);

  const { row, taken } = await inTransaction(db, async (tx) => {
    // hosts first, then the row (claims.ts: the same order as configure); the row as it is now:
    // it may have moved, expired or gone while DNS was being asked
    const { inspection, taken } = await settleInspection(tx, domain, asked, actor.requestId);
    const current = await lockDomain(tx, domain.id);
    if (!current) throw noDomain(clientId);
    const { move, data } = checkUpdate(current, inspection, { automatic: false, now: new Date() });
    const updated = await writeCheck(tx, current.id, data);
    // locked above, so never gone; 404 RESOURCE_NOT_FOUND
    if (!updated) throw resourceGone();
    // every instance's cached OP issuer of these hosts (lib/oidc/provider/issuer.ts), on commit
    if (updated.status !== current.status) await publishInvalidation(tx, CACHE_TOPICS.customDomains);
    await recordAudit(tx, {
      ...workspaceAudit(actor),
      targetType: "custom_domain",
      action: "custom_domain.checked",
      targetId: current.id,
      data: {
        appId: app.id,
        event: inspection.event,
        from: current.status,
        to: move.status,
        requiredAction: move.requiredAction,
        trigger: "verify",
      },
    });
    return { row: updated, taken };
  });
  forgetCustomDomainHosts([row.webDomain, row.oidcDomain]);
  // the check is recorded (GET shows it too); the caller is told in the answer's code
  if (taken.length > 0) throw hostTaken(row, taken);
  return toCustomDomainJson(row);
}

export async function deleteCustomDomain(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
): Promise<{ deleted: true }> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const domain = await readDomainOfApp(db, app.id);
  if (!domain) throw noDomain(clientId);
  const move = transition(DOMAIN_TRANSITIONS, domain.status, "delete", illegalDomainTransition);
  // gone meanwhile (a concurrent delete): 404 RESOURCE_NOT_FOUND
  if (!(await deleteDomain(db, domain.id))) throw resourceGone();
  await publishInvalidation(db, CACHE_TOPICS.customDomains);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    targetType: "custom_domain",
    action: "custom_domain.deleted",
    targetId: domain.id,
    data: {
      appId: app.id,
      webDomain: domain.webDomain,
      oidcDomain: domain.oidcDomain,
      from: domain.status,
      to: move.status,
    },
  });
  forgetCustomDomainHosts([domain.webDomain, domain.oidcDomain]);
  return { deleted: true };
}
