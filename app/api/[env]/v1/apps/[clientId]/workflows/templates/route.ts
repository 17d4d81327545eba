import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { listTemplates } from "@/lib/workflows/service";

export const GET = withApi(endpoints.listWorkflowTemplates, async ({ db, auth, params }) =>
  json(200, await listTemplates(db, auth, params.clientId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
