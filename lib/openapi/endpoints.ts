/**
 * Every endpoint definition of the REST surface. A route file that the document lacks, or a
 * definition without a route, fails lib/openapi/routes.integration.test.ts.
 */
import * as activation from "../activation/api";
import * as apiKeys from "../api-keys/api";
import * as apps from "../apps/api";
import * as auditEvents from "../audit/api";
import * as domains from "../domains/api";
import type { EndpointDef } from "../http/endpoint";
import * as oidc from "../oidc/api";
import * as operators from "../operators/api";
import * as productionTests from "../production-tests/api";
import * as providers from "../providers/api";
import * as requestLogs from "../request-log/api";
import * as stats from "../stats/api";
import * as team from "../team/api";
import * as verificationLog from "../verification-log/api";
import * as verifications from "../verifications/api";
import * as webhooks from "../webhooks/api";
import * as webhookDeliveries from "../webhooks/deliveries-api";
import * as workflows from "../workflows/api";
import * as workflowRuns from "../workflows/runs-api";
import * as openapi from "./api";

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
  auditEvents,
  requestLogs,
  team,
  apiKeys,
  oidc,
  operators,
  openapi,
);
