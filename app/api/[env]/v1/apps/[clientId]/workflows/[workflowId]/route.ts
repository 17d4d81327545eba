import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { deleteWorkflow, getWorkflow, updateWorkflow } from "@/lib/workflows/service";
import { etagOf } from "@/lib/workflows/versioning";

export const GET = withApi(endpoints.getWorkflow, async ({ db, auth, params }) => {
  const workflow = await getWorkflow(db, auth, params.clientId, params.workflowId);
  return json(200, workflow, { ETag: etagOf(workflow.version) });
});

export const PATCH = withApi(
  endpoints.updateWorkflow,
  async ({ db, auth, body, params, requestId, request }) => {
    const workflow = await updateWorkflow(
      db,
      { auth, requestId },
      params.clientId,
      params.workflowId,
      body,
      request.headers.get("if-match"),
    );
    return json(200, workflow, { ETag: etagOf(workflow.version) });
  },
);

export const DELETE = withApi(endpoints.deleteWorkflow, async ({ db, auth, params, requestId }) =>
  json(200, await deleteWorkflow(db, { auth, requestId }, params.clientId, params.workflowId)),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
