import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/run-endpoints";
import { whatIf } from "@/lib/workflows/what-if";

export const POST = withApi(endpoints.whatIfWorkflow, async ({ db, auth, body, params }) =>
  json(200, await whatIf(db, auth, params.clientId, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
