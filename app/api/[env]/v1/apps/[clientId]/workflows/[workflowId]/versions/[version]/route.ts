import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { getWorkflowVersion } from "@/lib/workflows/versions";

export const GET = withApi(endpoints.getWorkflowVersion, async ({ db, auth, params }) =>
  json(200, await getWorkflowVersion(db, auth, params.clientId, params.workflowId, params.version)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
