import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { createWorkflow, listWorkflows } from "@/lib/workflows/service";
import { etagOf } from "@/lib/workflows/versioning";

export const GET = withApi(endpoints.listWorkflows, async ({ db, auth, params }) =>
  json(200, await listWorkflows(db, auth, params.clientId)),
);

export const POST = withApi(endpoints.createWorkflow, async ({ db, auth, body, params, requestId, url }) => {
  const workflow = await createWorkflow(db, { auth, requestId }, params.clientId, body);
  return json(201, workflow, {
    Location: `${url.pathname}/${workflow.workflowId}`,
    ETag: etagOf(workflow.version),
  });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
