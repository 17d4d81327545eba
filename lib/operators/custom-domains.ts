/**
 * Custom domains for support (read-only).
 * Rules:
 * - the list holds the domains of the URL's environment, of apps that are not deleted (a deleted
 *   app's domain is not served and is released when someone claims its hosts), newest first, each
 *   in the Workspace API's shape (lib/domains/serialize.ts) plus its app and workspace;
 * - the TLS answer is lib/domains/routing.ts's decision — the very function behind
 *   GET /api/tls/allowed — put into words; it is the edge's answer, the same under both
 *   environments' base URLs, naming the environment of the domain it found.
 */
import type { Db } from "../db/client";
import { decideTlsHost, type TTlsDecision } from "../domains/routing";
import { toCustomDomainJson } from "../domains/serialize";
import { parseDomainStatus } from "../domains/state-machine";
import {
  countOperatorDomains,
  listOperatorDomains,
  type TOperatorDomainFilter,
} from "../domains/store/operators";
import { readWorkspaceName } from "../team/store/members";
import type { TEnvironment } from "../environments";
import { page, type TPage } from "../http/pagination";
import { likeLiteral } from "../db/kysely";
import type { TListCustomDomainsQuery, TOperatorCustomDomainJson, TTlsCheckJson } from "./endpoints";

export async function listCustomDomainsForOperator(
  db: Db,
  env: TEnvironment,
  query: TListCustomDomainsQuery,
): Promise<TPage<TOperatorCustomDomainJson>> {
  // hosts are stored lowercased (normalised at configure time); LIKE wildcards are literal
  const filter: TOperatorDomainFilter = {
    environment: env,
    ...(query.status ? { status: query.status } : {}),
    ...(query.search ? { search: query.search, hostPattern: likeLiteral(query.search.toLowerCase()) } : {}),
  };
  const [total, rows] = await Promise.all([
    countOperatorDomains(db, filter),
    listOperatorDomains(db, filter, { limit: query.limit, offset: query.offset }),
  ]);
  return page(
    rows.map((row) => ({
      ...toCustomDomainJson(row),
      domainId: row.id,
      webDomain: row.webDomain,
      oidcDomain: row.oidcDomain,
      createdAt: row.createdAt.toISOString(),
      activatedAt: row.activatedAt?.toISOString() ?? null,
      app: { clientId: row.appId, name: row.appName },
      workspace: { workspaceId: row.workspaceId, name: row.workspaceName },
    })),
    total,
    query.limit,
    query.offset,
  );
}

const NOT_ACTIVE_REASON: Record<string, string> = {
  awaiting_dns: "domain awaiting DNS: no record found yet (the integrator adds the CNAME and TXT records)",
  verifying: "domain verifying: some DNS records are visible, others not yet",
  invalid: "domain invalid: a DNS record has a wrong value (the integrator fixes it and verifies again)",
};

/** The decision in words, for support. */
export function describeTlsDecision(decision: TTlsDecision): string {
  switch (decision.code) {
    case "invalid_host":
      return "refused: not a DNS host name";
    case "unknown_host":
      return "refused: unknown host (no custom domain uses it)";
    case "app_deleted":
      return `refused: the app ${decision.domain.appId} ("${decision.domain.appName}") was deleted`;
    case "domain_not_active": {
      const d = decision.domain;
      const why =
        d.requiredAction === "contact_support"
          ? "domain invalid: a host became one of the service's own"
          : (NOT_ACTIVE_REASON[d.status] ?? `domain ${d.status}`);
      return `refused: ${why} (app ${d.appId})`;
    }
    case "active_custom_domain":
      return `allowed: active custom domain of app ${decision.domain.appId} ("${decision.domain.appName}"), ${decision.domain.role} host, ${decision.domain.environment}`;
  }
}

export async function checkTlsHostForOperator(db: Db, host: string): Promise<TTlsCheckJson> {
  const decision = await decideTlsHost(db, host);
  const d = decision.domain;
  const workspaceName = d ? await readWorkspaceName(db, d.workspaceId) : undefined;
  return {
    host,
    normalizedHost: decision.host,
    allowed: decision.allowed,
    code: decision.code,
    reason: describeTlsDecision(decision),
    domain: d
      ? {
          domainId: d.domainId,
          role: d.role,
          webDomain: d.webDomain,
          oidcDomain: d.oidcDomain,
          status: parseDomainStatus(d.status),
          requiredAction: d.requiredAction,
          statusMessage: d.statusMessage,
          lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
          environment: d.environment,
          app: { clientId: d.appId, name: d.appName, deleted: d.appDeleted },
          workspace: { workspaceId: d.workspaceId, name: workspaceName ?? "" },
        }
      : null,
  };
}
