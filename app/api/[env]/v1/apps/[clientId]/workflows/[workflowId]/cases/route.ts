import { ApiError } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { createCase, listCases } from "@/lib/workflows/cases";
import { createWorkflowCase, listWorkflowCases } from "@/lib/workflows/run-endpoints";

// sandbox only: cases run sandbox test identities
export const GET = withApi(listWorkflowCases, async ({ db, auth, params, env, url }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for GET ${url.pathname}`);
  return json(200, await listCases(db, auth, params.clientId!, params.workflowId!));
});

export const POST = withApi(createWorkflowCase, async ({ db, auth, body, params, env, url, requestId }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for POST ${url.pathname}`);
  const created = await createCase(db, { auth, requestId }, params.clientId!, params.workflowId!, body);
  return json(201, created, { Location: `${url.pathname}/${created.id}` });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
