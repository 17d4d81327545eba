/**
 * Reading the audit log (GET /v1/audit-events). Rules:
 * - the caller's workspace only; entries of the URL's environment and workspace-wide ones
 *   (environment null: team, workspace name), newest first;
 * - `action` is exact, or a prefix when it ends in `*`;
 * - actors are shown by what a person recognises: a user's email, an API key's name, an app's
 *   name (the OAuth token endpoint records the app as actor); looked up in one query per kind for
 *   the whole page, and only among this workspace's keys and apps.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Tx } from "../db/client";
import type { AuditEvent, Prisma } from "../db/generated/client";
import type { TEnvironment } from "../environments";
import { page, type TPage } from "../http/pagination";
import { memberGuard } from "../state-machine";
import { createdAtRange } from "../verification-log/filters";
import { AUDIT_ACTOR_TYPES, type TAuditEventJson, type TListAuditEventsQuery } from "./endpoints";

type Scope = Pick<WorkspaceAuth, "workspaceId" | "environment">;

/** `action` exact, or a prefix when it ends in `*` (a lone `*` is no filter). */
function actionFilter(action: string | undefined): Prisma.AuditEventWhereInput {
  if (!action) return {};
  if (!action.endsWith("*")) return { action };
  const prefix = action.slice(0, -1);
  return prefix ? { action: { startsWith: prefix } } : {};
}

/**
 * One page of the entries matching `filters` that belong to `environment` or to none (environment
 * null), narrowed by `action` and the date bounds of `query`; newest first, ids break ties. Both
 * audit views (the workspace's and the operators', lib/operators/audit.ts) read through it.
 */
export async function findAuditEvents(
  db: Tx,
  environment: TEnvironment,
  filters: Prisma.AuditEventWhereInput,
  query: { action?: string; from?: Date; to?: Date; limit: number; offset: number },
): Promise<{ total: number; rows: AuditEvent[] }> {
  const where: Prisma.AuditEventWhereInput = {
    ...filters,
    OR: [{ environment }, { environment: null }],
    ...actionFilter(query.action),
    ...createdAtRange(query),
  };
  const [total, rows] = await Promise.all([
    db.auditEvent.count({ where }),
    db.auditEvent.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: query.limit,
      skip: query.offset,
    }),
  ]);
  return { total, rows };
}

function actorNames(db: Tx, scope: Scope, rows: AuditEvent[]): Promise<Map<string, string>> {
  return actorDisplayNames(
    db,
    scope.workspaceId,
    rows.map((r) => r.actorId),
  );
}

/**
 * What a person recognises for actor ids (usr_… → email, key_… → key name, app_… → app name),
 * keys and apps only among `workspaceId`'s. Also used for the authors of workflow versions.
 */
export async function actorDisplayNames(
  db: Tx,
  workspaceId: string,
  actorIds: readonly (string | null)[],
): Promise<Map<string, string>> {
  const ids = [...new Set(actorIds.filter((id): id is string => id !== null))];
  const of = (prefix: string) => ids.filter((id) => id.startsWith(prefix));
  const [users, keys, apps] = await Promise.all([
    of("usr_").length
      ? db.user.findMany({ where: { id: { in: of("usr_") } }, select: { id: true, email: true } })
      : [],
    of("key_").length
      ? db.apiKey.findMany({
          where: { id: { in: of("key_") }, workspaceId },
          select: { id: true, name: true },
        })
      : [],
    of("app_").length
      ? db.app.findMany({
          where: { id: { in: of("app_") }, workspaceId },
          select: { id: true, name: true },
        })
      : [],
  ]);
  return new Map<string, string>([
    ...users.map((u) => [u.id, u.email] as [string, string]),
    ...keys.map((k) => [k.id, k.name] as [string, string]),
    ...apps.map((a) => [a.id, a.name] as [string, string]),
  ]);
}

const isAuditActorType = memberGuard(AUDIT_ACTOR_TYPES);

/** `audit_events.actor_type`; a type this version does not know shows as `system`. */
function actorType(value: string): TAuditEventJson["actor"]["type"] {
  return isAuditActorType(value) ? value : "system";
}

export async function listAuditEvents(
  db: Tx,
  scope: Scope,
  query: TListAuditEventsQuery,
): Promise<TPage<TAuditEventJson>> {
  const { total, rows } = await findAuditEvents(
    db,
    scope.environment,
    {
      workspaceId: scope.workspaceId,
      ...(query.actorId ? { actorId: query.actorId } : {}),
      ...(query.targetType ? { targetType: query.targetType } : {}),
      ...(query.targetId ? { targetId: query.targetId } : {}),
    },
    query,
  );
  const names = await actorNames(db, scope, rows);
  return page(
    rows.map((r) => toAuditEventJson(r, names)),
    total,
    query.limit,
    query.offset,
  );
}

/** An entry as the API returns it; `names` maps actor ids to what a person recognises. */
export function toAuditEventJson(r: AuditEvent, names: ReadonlyMap<string, string>): TAuditEventJson {
  return {
    auditId: r.id,
    createdAt: r.createdAt.toISOString(),
    actor: {
      type: actorType(r.actorType),
      id: r.actorId,
      display: r.actorId ? (names.get(r.actorId) ?? null) : null,
    },
    action: r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    environment: r.environment,
    requestId: r.requestId,
    data: r.data && typeof r.data === "object" && !Array.isArray(r.data) ? r.data : {},
  };
}
