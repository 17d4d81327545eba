/**
 * Reading the API request log (GET /v1/request-logs): the caller's workspace and the URL's
 * environment only, newest first. Requests that never authenticated carry no workspace and are
 * not shown to anyone.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Tx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { page, type TPage } from "../http/pagination";
import { createdAtRange } from "../verification-log/filters";
import { parseCredentialType } from "./credential-types";
import type { TListRequestLogsQuery, TRequestLogJson } from "./endpoints";

function statusRange(statusClass: TListRequestLogsQuery["statusClass"]): Prisma.ApiRequestLogWhereInput {
  if (!statusClass) return {};
  const base = Number(statusClass[0]) * 100;
  return { status: { gte: base, lt: base + 100 } };
}

/** Prisma's `contains` passes LIKE wildcards through: a `%` or `_` typed by the user is literal. */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listRequestLogs(
  db: Tx,
  scope: Pick<WorkspaceAuth, "workspaceId" | "environment">,
  query: TListRequestLogsQuery,
): Promise<TPage<TRequestLogJson>> {
  const where: Prisma.ApiRequestLogWhereInput = {
    workspaceId: scope.workspaceId,
    environment: scope.environment,
    ...statusRange(query.statusClass),
    ...(query.method ? { method: query.method } : {}),
    ...(query.path ? { path: { contains: likeLiteral(query.path) } } : {}),
    ...(query.appId ? { appId: query.appId } : {}),
    ...(query.credentialId ? { credentialId: query.credentialId } : {}),
    ...(query.verificationId ? { verificationId: query.verificationId } : {}),
    ...createdAtRange(query),
  };
  const [total, rows] = await Promise.all([
    db.apiRequestLog.count({ where }),
    db.apiRequestLog.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: query.limit,
      skip: query.offset,
    }),
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
