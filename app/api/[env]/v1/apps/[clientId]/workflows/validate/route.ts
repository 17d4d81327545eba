import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { validateWorkflowDraft } from "@/lib/workflows/service";

export const POST = withApi(endpoints.validateWorkflow, async ({ db, auth, body, params }) =>
  json(200, await validateWorkflowDraft(db, auth, params.clientId, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
