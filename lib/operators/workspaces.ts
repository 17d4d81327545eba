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
import type { Tx } from "../db/client";
import { Prisma } from "../db/client";
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

const DAY_MS = 24 * 3600 * 1000;

interface SummaryRow {
  id: string;
  name: string;
  created_at: Date;
  total: number;
  members: number;
  sandbox_apps: number;
  production_apps: number;
  sessions: number;
  deliveries: number;
  dead: number;
}

/** `value` for a LIKE pattern, its wildcards taken literally. */
export function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function matchCondition(search: string | undefined): Prisma.Sql {
  if (!search) return Prisma.sql`TRUE`;
  const pattern = `%${likeLiteral(search)}%`;
  return Prisma.sql`(
    w.id = ${search}
    OR w.name ILIKE ${pattern}
    OR EXISTS (
      SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.workspace_id = w.id AND u.email ILIKE ${pattern}
    )
  )`;
}

async function summaryRows(
  db: Tx,
  env: TEnvironment,
  where: Prisma.Sql,
  limit: number,
  offset: number,
  now: Date,
): Promise<SummaryRow[]> {
  const since = new Date(now.getTime() - ACTIVITY_DAYS * DAY_MS);
  return db.$queryRaw<SummaryRow[]>`
    WITH matched AS (
      SELECT w.id, w.name, w.created_at FROM workspaces w WHERE ${where}
    ), page AS (
      SELECT * FROM matched ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}
    )
    SELECT p.id, p.name, p.created_at,
           (SELECT count(*) FROM matched)::int AS total,
           mem.members, ap.sandbox_apps, ap.production_apps, ses.sessions, wh.deliveries, wh.dead
    FROM page p
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS members FROM memberships m WHERE m.workspace_id = p.id
    ) mem
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE a.environment = 'sandbox')::int AS sandbox_apps,
             count(*) FILTER (WHERE a.environment = 'production')::int AS production_apps
      FROM apps a WHERE a.workspace_id = p.id AND a.deleted_at IS NULL
    ) ap
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS sessions FROM verifications v
      WHERE v.workspace_id = p.id AND v.environment = ${env}::"Environment" AND v.created_at >= ${since}
        AND NOT v.untouched
    ) ses
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS deliveries, count(*) FILTER (WHERE d.status = 'dead')::int AS dead
      FROM apps a JOIN webhook_deliveries d ON d.app_id = a.id
      WHERE a.workspace_id = p.id AND a.environment = ${env}::"Environment"
        AND d.created_at >= ${since} AND d.event_id IS NOT NULL
    ) wh
    ORDER BY p.created_at DESC, p.id DESC`;
}

function toSummaryJson(row: SummaryRow): TWorkspaceSummaryJson {
  return {
    workspaceId: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    memberCount: row.members,
    apps: { sandbox: row.sandbox_apps, production: row.production_apps },
    sessionsLast30Days: row.sessions,
    webhooks: {
      deliveries: row.deliveries,
      dead: row.dead,
      failureRate: row.deliveries === 0 ? null : Math.round((row.dead / row.deliveries) * 10_000) / 10_000,
    },
  };
}

export async function listWorkspacesForOperator(
  db: Tx,
  env: TEnvironment,
  query: TListWorkspacesQuery,
  now: Date = new Date(),
): Promise<TPage<TWorkspaceSummaryJson>> {
  const rows = await summaryRows(db, env, matchCondition(query.search), query.limit, query.offset, now);
  // an offset past the end returns no row to carry the total: count on its own then
  const total =
    rows[0]?.total ??
    (query.offset > 0
      ? (
          await db.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM workspaces w WHERE ${matchCondition(query.search)}`
        )[0]!.n
      : 0);
  return page(rows.map(toSummaryJson), total, query.limit, query.offset);
}

export async function getWorkspaceForOperator(
  db: Tx,
  env: TEnvironment,
  workspaceId: string,
  now: Date = new Date(),
): Promise<TWorkspaceDetailJson> {
  const [summary] = await summaryRows(db, env, Prisma.sql`w.id = ${workspaceId}`, 1, 0, now);
  if (!summary) throw notFound(`Workspace "${workspaceId}"`);
  const [members, apps] = await Promise.all([
    db.membership.findMany({
      where: { workspaceId },
      include: { user: { select: { id: true, email: true, name: true } } },
      orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    }),
    db.app.findMany({
      where: { workspaceId, environment: env, deletedAt: null },
      select: {
        id: true,
        name: true,
        createdAt: true,
        customDomain: { select: { status: true } },
        providers: {
          select: { providerId: true, status: true, enabled: true, activatedAt: true, currentTicketId: true },
          orderBy: { createdAt: "asc" },
        },
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    }),
  ]);
  return {
    ...toSummaryJson(summary),
    members: members.map((m) => ({
      userId: m.user.id,
      email: m.user.email,
      name: m.user.name,
      role: m.role,
      joinedAt: m.createdAt.toISOString(),
    })),
    appsInEnvironment: apps.map((a) => ({
      clientId: a.id,
      name: a.name,
      createdAt: a.createdAt.toISOString(),
      customDomainStatus: a.customDomain ? parseDomainStatus(a.customDomain.status) : "unconfigured",
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
