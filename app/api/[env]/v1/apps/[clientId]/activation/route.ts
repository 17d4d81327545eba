import * as endpoints from "@/lib/activation/endpoints";
import { submitActivation } from "@/lib/activation/submit";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const POST = withApi(endpoints.submitActivation, async ({ db, auth, body, params, requestId }) =>
  json(200, await submitActivation(db, { auth, requestId }, params.clientId, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
