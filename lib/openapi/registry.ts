/**
 * Every endpoint definition of the REST surface. A route file that the document lacks, or a
 * definition without a route, fails lib/openapi/routes.test.ts.
 */
import * as activation from "../activation/endpoints";
import * as apiKeys from "../api-keys/endpoints";
import * as apps from "../apps/endpoints";
import * as auditEvents from "../audit/endpoints";
import * as connections from "../connections/endpoints";
import * as domains from "../domains/endpoints";
import type { EndpointDef } from "../http/endpoint";
import * as oidc from "../oidc/endpoints";
import * as onboarding from "../onboarding/endpoints";
import * as operators from "../operators/endpoints";
import * as productionTests from "../production-tests/endpoints";
import * as providers from "../providers/endpoints";
import * as requestLogs from "../request-log/endpoints";
import * as stats from "../stats/endpoints";
import * as team from "../team/endpoints";
import * as verificationLog from "../verifications/log/endpoints";
import * as verifications from "../verifications/endpoints";
import * as webhooks from "../webhooks/config-endpoints";
import * as webhookDeliveries from "../webhooks/log/endpoints";
import * as workflows from "../workflows/endpoints";
import * as workflowRuns from "../workflows/run-endpoints";
import * as openapi from "./endpoints";

function defs(...modules: Record<string, unknown>[]): EndpointDef[] {
  const out: EndpointDef[] = [];
  for (const mod of modules) {
    for (const value of Object.values(mod)) {
      if (
        value &&
        typeof value === "object" &&
        "operationId" in value &&
        "method" in value &&
        "path" in value
      ) {
        out.push(value as EndpointDef);
      }
    }
  }
  return out;
}

export const ALL_ENDPOINTS: EndpointDef[] = defs(
  apps,
  providers,
  activation,
  productionTests,
  workflows,
  workflowRuns,
  webhooks,
  webhookDeliveries,
  domains,
  verifications,
  verificationLog,
  stats,
  onboarding,
  auditEvents,
  requestLogs,
  team,
  apiKeys,
  oidc,
  operators,
  connections,
  openapi,
);
