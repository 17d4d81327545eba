/** Query keys and types of the Audit log page. */
import type { TEnv } from "@/components/console/api";
import type { TAuditEventJson } from "@/lib/audit/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TAuditEvent = TAuditEventJson;

export type TAuditEventPage = TPage<TAuditEvent>;

export interface TAuditFilters {
  actorId: string;
  action: string;
  targetId: string;
  from: string;
  to: string;
}

export const auditKeys = {
  all: (env: TEnv) => ["audit-events", env] as const,
  list: (env: TEnv, params: TAuditFilters & { offset: number; limit: number }) =>
    [...auditKeys.all(env), "list", params] as const,
};
