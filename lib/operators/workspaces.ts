/**
 * The operators' workspaces overview (read-only).
 * Rules:
 * - every workspace, newest first; `search` matches part of the name or of a member's email (any
 *   case, LIKE wildcards taken literally) or the exact workspace id;
 * - members are workspace-wide; apps are counted per environment (deleted apps left out); the
 *   activity figures (sessions and webhook deliveries of the last ACTIVITY_DAYS days) belong to
 *   the URL's environment only, as every record of an environment does;
 * - the webhook failure rate is dead event deliveries over all event deliveries created in the
 *   period (test deliveries are someone pressing "Send test", not traffic);
 * - one statement per page: the page of workspaces is cut first, then each figure is one
 *   aggregate per workspace of the page (LATERAL), each on an index — no per-row round trips.
 */
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { notFound } from "../errors";
import { page, type TPage } from "../http/pagination";
import { findProvider } from "../providers/catalog";
import {
  ACTIVITY_DAYS,
  type TListWorkspacesQuery,
  type TWorkspaceDetailJson,
  type TWorkspaceSummaryJson,
} from "./endpoints";
import { parseDomainStatus } from "../domains/state-machine";
import {
  countWorkspaces,
  readWorkspaceApps,
  readWorkspaceMembers,
  readWorkspaceSummaries,
  type TWorkspaceMatch,
  type TWorkspaceSummaryRow,
} from "./store";

// lib/operators/custom-domains.ts reads its search the same way

const DAY_MS = 24 * 3600 * 1000;

function summaryRows(
  db: Db,
  env: TEnvironment,
  match: TWorkspaceMatch,
  limit: number,
  offset: number,
  now: Date,
): Promise<TWorkspaceSummaryRow[]> {
  const since = new Date(now.getTime() - ACTIVITY_DAYS * DAY_MS);
  return readWorkspaceSummaries(db, { match, env, since, limit, offset });
}

function toSummaryJson(row: TWorkspaceSummaryRow): TWorkspaceSummaryJson {
  return {
    workspaceId: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    memberCount: row.members,
    apps: { sandbox: row.sandboxApps, production: row.productionApps },
    sessionsLast30Days: row.sessions,
    webhooks: {
      deliveries: row.deliveries,
      dead: row.dead,
      failureRate: row.deliveries === 0 ? null : Math.round((row.dead / row.deliveries) * 10_000) / 10_000,
    },
  };
}

export async function listWorkspacesForOperator(
  db: Db,
  env: TEnvironment,
  query: TListWorkspacesQuery,
  now: Date = new Date(),
): Promise<TPage<TWorkspaceSummaryJson>> {
  const match = { search: query.search };
  const rows = await summaryRows(db, env, match, query.limit, query.offset, now);
  // an offset past the end returns no row to carry the total: count on its own then
  const total = rows[0]?.total ?? (query.offset > 0 ? await countWorkspaces(db, match) : 0);
  return page(rows.map(toSummaryJson), total, query.limit, query.offset);
}

export async function getWorkspaceForOperator(
  db: Db,
  env: TEnvironment,
  workspaceId: string,
  now: Date = new Date(),
): Promise<TWorkspaceDetailJson> {
  const [summary] = await summaryRows(db, env, { id: workspaceId }, 1, 0, now);
  if (!summary) throw notFound(`Workspace "${workspaceId}"`);
  const [members, apps] = await Promise.all([
    readWorkspaceMembers(db, workspaceId),
    readWorkspaceApps(db, workspaceId, env),
  ]);
  return {
    ...toSummaryJson(summary),
    members: members.map((m) => ({
      userId: m.id,
      email: m.email,
      name: m.name,
      role: m.role,
      joinedAt: m.createdAt.toISOString(),
    })),
    appsInEnvironment: apps.map((a) => ({
      clientId: a.id,
      name: a.name,
      createdAt: a.createdAt.toISOString(),
      customDomainStatus:
        a.customDomainStatus !== null ? parseDomainStatus(a.customDomainStatus) : "unconfigured",
      providers: a.providers.map((p) => ({
        providerId: p.providerId,
        providerName: findProvider(p.providerId)?.name ?? p.providerId,
        status: p.status,
        enabled: p.enabled,
        activatedAt: p.activatedAt?.toISOString() ?? null,
        currentTicketId: p.currentTicketId,
      })),
    })),
  };
}
