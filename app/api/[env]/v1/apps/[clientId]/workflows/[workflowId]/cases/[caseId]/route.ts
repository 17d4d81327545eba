import { json, otherMethods, withApi } from "@/lib/http/api";
import { deleteCase } from "@/lib/workflows/cases";
import * as endpoints from "@/lib/workflows/run-endpoints";

export const DELETE = withApi(endpoints.deleteWorkflowCase, async ({ db, auth, params, requestId }) => {
  return json(
    200,
    await deleteCase(db, { auth, requestId }, params.clientId, params.workflowId, params.caseId),
  );
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
