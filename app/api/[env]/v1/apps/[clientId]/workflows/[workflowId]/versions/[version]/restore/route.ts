import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { restoreWorkflowVersion } from "@/lib/workflows/service";
import { etagOf } from "@/lib/workflows/versioning";

export const POST = withApi(
  endpoints.restoreWorkflowVersion,
  async ({ db, auth, params, requestId, request }) => {
    const workflow = await restoreWorkflowVersion(
      db,
      { auth, requestId },
      params.clientId,
      params.workflowId,
      params.version,
      request.headers.get("if-match"),
    );
    return json(200, workflow, { ETag: etagOf(workflow.version) });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
