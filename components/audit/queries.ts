/** Query keys and types of the Audit log page. */
import type { TEnv } from "@/components/console/api";
import type { TAuditEventJson } from "@/lib/audit/endpoints";

export type TAuditEvent = TAuditEventJson;

export interface TAuditEventPage {
  data: TAuditEvent[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

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
