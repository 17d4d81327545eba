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
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { page, type TPage } from "../http/pagination";
import { memberGuard } from "../state-machine";
import { AUDIT_ACTOR_TYPES, type TAuditEventJson, type TListAuditEventsQuery } from "./endpoints";
import {
  countAuditEvents,
  listAuditEventRows,
  readAppNames,
  readKeyNames,
  readUserEmails,
  type TAuditEventRow,
  type TAuditFilter,
} from "./store";

type Scope = Pick<WorkspaceAuth, "workspaceId" | "environment">;

/** `action` exact, or a prefix when it ends in `*` (a lone `*` is no filter). */
function actionFilter(action: string | undefined): Pick<TAuditFilter, "action"> {
  if (!action) return {};
  if (!action.endsWith("*")) return { action: { exact: action } };
  const prefix = action.slice(0, -1);
  return prefix ? { action: { prefix } } : {};
}

/** The fields of an audit filter that name who and what (every entry of the environment without them). */
export type TAuditFields = Omit<TAuditFilter, "environment" | "action" | "from" | "to">;

/**
 * One page of the entries matching `filters` that belong to `environment` or to none (environment
 * null), narrowed by `action` and the date bounds of `query`; newest first, ids break ties. Both
 * audit views (the workspace's and the operators', lib/operators/audit.ts) read through it.
 */
export async function findAuditEvents(
  db: Db,
  environment: TEnvironment,
  filters: TAuditFields,
  query: { action?: string; from?: Date; to?: Date; limit: number; offset: number },
): Promise<{ total: number; rows: TAuditEventRow[] }> {
  const filter: TAuditFilter = {
    ...filters,
    environment,
    ...actionFilter(query.action),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
  const [total, rows] = await Promise.all([
    countAuditEvents(db, filter),
    listAuditEventRows(db, filter, { limit: query.limit, offset: query.offset }),
  ]);
  return { total, rows };
}

function actorNames(db: Db, scope: Scope, rows: TAuditEventRow[]): Promise<Map<string, string>> {
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
  db: Db,
  workspaceId: string,
  actorIds: readonly (string | null)[],
): Promise<Map<string, string>> {
  const ids = [...new Set(actorIds.filter((id): id is string => id !== null))];
  const of = (prefix: string) => ids.filter((id) => id.startsWith(prefix));
  const [users, keys, apps] = await Promise.all([
    of("usr_").length ? readUserEmails(db, of("usr_")) : [],
    of("key_").length ? readKeyNames(db, workspaceId, of("key_")) : [],
    of("app_").length ? readAppNames(db, workspaceId, of("app_")) : [],
  ]);
  return new Map<string, string>([
    ...users.map((u) => [u.id, u.email] as [string, string]),
    ...keys.map((k) => [k.id, k.name] as [string, string]),
    ...apps.map((a) => [a.id, a.name] as [string, string]),
  ]);
}

const isAuditActorType = memberGuard(AUDIT_ACTOR_TYPES);

/** A JSON object (the `data` of an entry as written; anything else shows as `{}`). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `audit_events.actor_type`; a type this version does not know shows as `system`. */
function actorType(value: string): TAuditEventJson["actor"]["type"] {
  return isAuditActorType(value) ? value : "system";
}

export async function listAuditEvents(
  db: Db,
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
export function toAuditEventJson(r: TAuditEventRow, names: ReadonlyMap<string, string>): TAuditEventJson {
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
    data: isRecord(r.data) ? r.data : {},
  };
}
