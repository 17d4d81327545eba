import { json, otherMethods, withApi } from "@/lib/http/api";
import { createCase, listCases } from "@/lib/workflows/cases";
import * as endpoints from "@/lib/workflows/run-endpoints";

export const GET = withApi(endpoints.listWorkflowCases, async ({ db, auth, params }) => {
  return json(200, await listCases(db, auth, params.clientId, params.workflowId));
});

export const POST = withApi(
  endpoints.createWorkflowCase,
  async ({ db, auth, body, params, requestId, url }) => {
    const created = await createCase(db, { auth, requestId }, params.clientId, params.workflowId, body);
    return json(201, created, { Location: `${url.pathname}/${created.id}` });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
