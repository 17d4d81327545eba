import { json, otherMethods, withApi } from "@/lib/http/api";
import { runCases } from "@/lib/workflows/cases";
import * as endpoints from "@/lib/workflows/run-endpoints";

export const POST = withApi(endpoints.runWorkflowCases, async ({ db, auth, body, params }) => {
  return json(200, await runCases(db, auth, params.clientId, params.workflowId, body.workflow));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
