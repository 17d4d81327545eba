import { ApiError } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { runCases } from "@/lib/workflows/cases";
import { runWorkflowCases } from "@/lib/workflows/run-endpoints";

// sandbox only: cases run sandbox test identities
export const POST = withApi(runWorkflowCases, async ({ db, auth, body, params, env, url }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for POST ${url.pathname}`);
  return json(200, await runCases(db, auth, params.clientId!, params.workflowId!, body.workflow));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
