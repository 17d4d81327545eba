/**
 * The operators' audit view: every entry whose actor is an operator (actorType `operator`,
 * actorId the operator's user id — how lib/activation and lib/production-tests record them),
 * across workspaces.
 * Rules: entries of the URL's environment and deployment-wide ones (environment null), newest
 * first; filters and the actor display are the workspace audit log's (lib/audit/log.ts), so
 * `action` prefixes and date bounds mean the same in both views.
 */
import { findAuditEvents, toAuditEventJson } from "../audit/log";
import { readUserEmails } from "../audit/store";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { page, type TPage } from "../http/pagination";
import type { TListOperatorAuditEventsQuery, TOperatorAuditEventJson } from "./endpoints";

export async function listOperatorAuditEvents(
  db: Db,
  env: TEnvironment,
  query: TListOperatorAuditEventsQuery,
): Promise<TPage<TOperatorAuditEventJson>> {
  const { total, rows } = await findAuditEvents(
    db,
    env,
    { actorType: "operator", ...(query.operatorId ? { actorId: query.operatorId } : {}) },
    query,
  );
  // operators are users: one query for the emails of the page
  const ids = [...new Set(rows.map((r) => r.actorId).filter((id): id is string => id !== null))];
  const users = ids.length ? await readUserEmails(db, ids) : [];
  const names = new Map(users.map((u) => [u.id, u.email]));
  return page(
    rows.map((r) => ({ ...toAuditEventJson(r, names), workspaceId: r.workspaceId })),
    total,
    query.limit,
    query.offset,
  );
}
