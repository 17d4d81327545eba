import { json, withApi } from "@/lib/http/api";
import * as api from "@/lib/workflows/api";
import { deleteWorkflow, getWorkflow, updateWorkflow } from "@/lib/workflows/service";

export const GET = withApi(api.getWorkflow, async ({ db, auth, params }) =>
  json(200, await getWorkflow(db, auth, params.clientId!, params.workflowId!)),
);

export const PATCH = withApi(api.updateWorkflow, async ({ db, auth, body, params, requestId }) =>
  json(200, await updateWorkflow(db, { auth, requestId }, params.clientId!, params.workflowId!, body)),
);

export const DELETE = withApi(api.deleteWorkflow, async ({ db, auth, params, requestId }) =>
  json(200, await deleteWorkflow(db, { auth, requestId }, params.clientId!, params.workflowId!)),
);
