/**
 * The operator audit view's reads: query keys and shapes of `GET /v1/operator/audit-events`
 * (the API's own types, from lib/operators/api.ts) and the actions operators record.
 */
import type { TEnv } from "@/components/console/api";
import type { TOperatorAuditEventJson } from "@/lib/operators/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TOperatorAuditEvent = TOperatorAuditEventJson;

export type TOperatorAuditPage = TPage<TOperatorAuditEvent>;

export interface TOperatorAuditFilters {
  operatorId: string;
  action: string;
  from: string;
  to: string;
}

export const operatorAuditKeys = {
  all: (env: TEnv) => ["operator", env, "audit-events"] as const,
  list: (env: TEnv, params: TOperatorAuditFilters & { offset: number; limit: number }) =>
    [...operatorAuditKeys.all(env), "list", params] as const,
};

/**
 * Suggestions for the Action filter: what lib/activation and lib/production-tests record with an
 * operator as the actor, and their prefixes. The filter accepts any action; these only save typing.
 */
export const KNOWN_ACTIONS = [
  "activation.*",
  "activation.review_started",
  "activation.approved",
  "activation.rejected",
  "activation.contract_recorded",
  "production_test.*",
  "production_test.scheduled",
  "production_test.failed",
] as const;

/** The back-office page of an entry's target, where one exists. */
export function targetHref(env: TEnv, event: TOperatorAuditEvent): string | undefined {
  if (!event.targetId) return undefined;
  // an entry of the other environment (never listed today) would 404 on this environment's page
  if (event.environment !== null && event.environment !== env) return undefined;
  if (event.targetType === "activation_ticket") return `/operator/${env}/activations/${event.targetId}`;
  if (event.targetType === "production_test_request")
    return `/operator/${env}/production-tests/${event.targetId}`;
  return undefined;
}
