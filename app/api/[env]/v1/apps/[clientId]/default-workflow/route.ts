import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { setDefaultWorkflow } from "@/lib/workflows/service";

export const PUT = withApi(endpoints.setDefaultWorkflow, async ({ db, auth, body, params, requestId }) =>
  json(200, await setDefaultWorkflow(db, { auth, requestId }, params.clientId, body.workflowId)),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
