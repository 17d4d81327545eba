import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { listWorkflowVersions } from "@/lib/workflows/versions";

export const GET = withApi(endpoints.listWorkflowVersions, async ({ db, auth, params, query }) =>
  json(200, await listWorkflowVersions(db, auth, params.clientId, params.workflowId, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
