/**
 * Reading the API request log (GET /v1/request-logs): the caller's workspace and the URL's
 * environment only, newest first. Requests that never authenticated carry no workspace and are
 * not shown to anyone.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/client";
import { page, type TPage } from "../http/pagination";
import { parseCredentialType } from "./credential-types";
import type { TListRequestLogsQuery, TRequestLogJson } from "./endpoints";
import { countRequestLogs, listRequestLogRows, type TRequestLogFilter } from "./store";

function statusRange(statusClass: TListRequestLogsQuery["statusClass"]): Pick<TRequestLogFilter, "status"> {
  if (!statusClass) return {};
  const base = Number(statusClass[0]) * 100;
  return { status: { from: base, below: base + 100 } };
}

export async function listRequestLogs(
  db: Db,
  scope: Pick<WorkspaceAuth, "workspaceId" | "environment">,
  query: TListRequestLogsQuery,
): Promise<TPage<TRequestLogJson>> {
  // a `%` or `_` typed by the user in `path` is literal
  const filter: TRequestLogFilter = {
    workspaceId: scope.workspaceId,
    environment: scope.environment,
    ...statusRange(query.statusClass),
    ...(query.method ? { method: query.method } : {}),
    ...(query.path ? { pathContains: query.path } : {}),
    ...(query.appId ? { appId: query.appId } : {}),
    ...(query.credentialId ? { credentialId: query.credentialId } : {}),
    ...(query.verificationId ? { verificationId: query.verificationId } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
  const [total, rows] = await Promise.all([
    countRequestLogs(db, filter),
    listRequestLogRows(db, filter, { limit: query.limit, offset: query.offset }),
  ]);
  return page(
    rows.map((r) => ({
      requestId: r.id,
      environment: r.environment,
      method: r.method,
      path: r.path,
      status: r.status,
      durationMs: r.durationMs,
      errorCode: r.errorCode,
      credentialType: parseCredentialType(r.credentialType),
      credentialId: r.credentialId,
      credentialName: r.credentialName,
      appId: r.appId,
      verificationId: r.verificationId,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
    query.limit,
    query.offset,
  );
}
