/**
 * Custom domains: one per app, hosted pages on webDomain and the OpenID Provider on oidcDomain.
 * Rules:
 * - the app is loaded with getOwnedApp first (404 unknown / deleted / other environment, 403
 *   another workspace's);
 * - configure (PUT) validates both hosts (hosts.ts), refuses when the app already has a custom
 *   domain (400 naming its hosts and status: delete it first) and when a host is taken by another
 *   app (400 naming the field, without saying whose); a host held by a deleted app is released;
 *   it only generates the DNS records: the status moves by checks alone (verify, background);
 * - verify looks the records up in real DNS outside the database transaction (a slow name server
 *   must not hold a connection), then applies the state machine's move to the row as it is then,
 *   sets lastCheckedAt and the per-record results and writes the audit entry in one short
 *   transaction (check.ts, shared with the background re-check);
 * - configure and every verify that leaves the domain pending (re)start the automatic re-checks
 *   (schedule.ts, recheck.ts), so a domain becomes active without anyone verifying again;
 * - delete removes the domain; the hosts stop being served at once on this instance;
 * - every state change is audited in the transaction that makes it.
 * Two apps claiming one host at once are serialised by transaction-scoped advisory locks on the
 * host names, because the unique indexes alone do not see a webDomain equal to another row's
 * oidcDomain.
 */
import type { Actor } from "../apps/service";
import { getOwnedApp } from "../apps/service";
import { auditActor, recordAudit } from "../audit";
import type { Db, Tx } from "../db/client";
import { Prisma } from "../db/client";
import type { CustomDomain } from "../db/generated/client";
import { ApiError, invalidField } from "../http/errors";
import { newId, randomToken } from "../ids";
import { checkUpdate, inspectCustomDomain } from "./check";
import { buildDnsRecords } from "./dns";
import { parseDomainPair } from "./hosts";
import { forgetCustomDomainHosts } from "./routing";
import { startRecheckSchedule } from "./schedule";
import { toCustomDomainJson, UNCONFIGURED_DOMAIN, type TCustomDomainJson } from "./serialize";
import { cnameTarget, reservedHosts } from "./settings";
import { nextDomainState } from "./state-machine";
import type { Resolver } from "node:dns/promises";

function auditBase(actor: Actor) {
  return {
    ...auditActor(actor.auth),
    requestId: actor.requestId,
    targetType: "custom_domain",
  };
}

function noDomain(clientId: string): ApiError {
  return new ApiError(
    "RESOURCE_NOT_FOUND",
    `App "${clientId}" has no custom domain; configure one with PUT /v1/apps/${clientId}/custom-domain`,
  );
}

export async function getCustomDomain(
  db: Tx,
  auth: Actor["auth"],
  clientId: string,
): Promise<TCustomDomainJson> {
  const app = await getOwnedApp(db, auth, clientId);
  const row = await db.customDomain.findUnique({ where: { appId: app.id } });
  return row ? toCustomDomainJson(row) : { ...UNCONFIGURED_DOMAIN };
}

async function lockHosts(db: Tx, hosts: string[]): Promise<void> {
  // sorted, so two requests locking the same two names cannot deadlock
  for (const host of [...hosts].sort()) {
    await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`custom-domain:${host}`}, 0))`;
  }
}

function hostTaken(field: "webDomain" | "oidcDomain", host: string): ApiError {
  return invalidField(field, `${host} is already used by another app`, "DOMAIN_IN_USE");
}

export async function configureCustomDomain(
  db: Tx,
  actor: Actor,
  clientId: string,
  input: { webDomain: string; oidcDomain: string },
): Promise<TCustomDomainJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const existing = await db.customDomain.findUnique({ where: { appId: app.id } });
  if (existing) {
    throw new ApiError(
      "CUSTOM_DOMAIN_EXISTS",
      `App "${clientId}" already has a custom domain (${existing.webDomain}, ${existing.oidcDomain}) with status ${existing.status}; delete it first to configure another`,
    );
  }
  const pair = parseDomainPair(input, reservedHosts());
  const hosts = [pair.webDomain, pair.oidcDomain];
  await lockHosts(db, hosts);

  const holders = await db.customDomain.findMany({
    where: { OR: [{ webDomain: { in: hosts } }, { oidcDomain: { in: hosts } }] },
    include: { app: { select: { deletedAt: true, workspaceId: true, environment: true } } },
  });
  for (const holder of holders) {
    if (holder.app.deletedAt === null) {
      const field = [holder.webDomain, holder.oidcDomain].includes(pair.webDomain)
        ? "webDomain"
        : "oidcDomain";
      throw hostTaken(field, field === "webDomain" ? pair.webDomain : pair.oidcDomain);
    }
    // a deleted app's domain is no longer served; its hosts are free to claim
    await db.customDomain.delete({ where: { id: holder.id } });
    await recordAudit(db, {
      workspaceId: holder.app.workspaceId,
      environment: holder.app.environment,
      actorType: "system",
      action: "custom_domain.released",
      targetType: "custom_domain",
      targetId: holder.id,
      requestId: actor.requestId,
      data: { appId: holder.appId, webDomain: holder.webDomain, oidcDomain: holder.oidcDomain },
    });
  }

  const move = nextDomainState("unconfigured", "configure");
  const token = randomToken(32);
  const schedule = startRecheckSchedule(new Date());
  let row: CustomDomain;
  try {
    row = await db.customDomain.create({
      data: {
        id: newId("dom"),
        appId: app.id,
        webDomain: pair.webDomain,
        oidcDomain: pair.oidcDomain,
        status: move.status,
        requiredAction: move.requiredAction,
        dnsRecords: buildDnsRecords(pair, cnameTarget(), token) as unknown as Prisma.InputJsonValue,
        verificationToken: token,
        nextCheckAt: schedule.nextCheckAt,
        autoChecks: schedule.autoChecks,
        pendingSince: schedule.pendingSince,
      },
    });
  } catch (err) {
    // only a concurrent configure of the same app gets here (hosts are locked above)
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new ApiError(
        "CUSTOM_DOMAIN_EXISTS",
        `App "${clientId}" already has a custom domain; delete it first`,
      );
    }
    throw err;
  }
  await recordAudit(db, {
    ...auditBase(actor),
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
  actor: Actor,
  clientId: string,
  resolver?: Resolver,
): Promise<TCustomDomainJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const domain = await db.customDomain.findUnique({ where: { appId: app.id } });
  if (!domain) throw noDomain(clientId);
  const inspection = await inspectCustomDomain(domain, resolver);

  const row = await db.$transaction(async (tx) => {
    // the row as it is now: it may have moved (or gone) while DNS was being asked
    const current = await tx.customDomain.findUnique({ where: { id: domain.id } });
    if (!current) throw noDomain(clientId);
    const { move, data } = checkUpdate(current, inspection, { automatic: false, now: new Date() });
    const updated = await tx.customDomain.update({ where: { id: current.id }, data });
    await recordAudit(tx, {
      ...auditBase(actor),
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
    return updated;
  });
  forgetCustomDomainHosts([row.webDomain, row.oidcDomain]);
  return toCustomDomainJson(row);
}

export async function deleteCustomDomain(db: Tx, actor: Actor, clientId: string): Promise<{ deleted: true }> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const domain = await db.customDomain.findUnique({ where: { appId: app.id } });
  if (!domain) throw noDomain(clientId);
  const move = nextDomainState(domain.status, "delete");
  await db.customDomain.delete({ where: { id: domain.id } });
  await recordAudit(db, {
    ...auditBase(actor),
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
