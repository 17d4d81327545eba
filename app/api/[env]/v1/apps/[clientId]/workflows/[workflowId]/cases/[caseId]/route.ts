import { ApiError } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { deleteCase } from "@/lib/workflows/cases";
import { deleteWorkflowCase } from "@/lib/workflows/run-endpoints";

// sandbox only: cases run sandbox test identities
export const DELETE = withApi(deleteWorkflowCase, async ({ db, auth, params, env, url, requestId }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for DELETE ${url.pathname}`);
  return json(
    200,
    await deleteCase(db, { auth, requestId }, params.clientId!, params.workflowId!, params.caseId!),
  );
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
