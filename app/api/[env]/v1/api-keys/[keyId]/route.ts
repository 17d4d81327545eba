import * as endpoints from "@/lib/api-keys/endpoints";
import { revokeApiKey } from "@/lib/api-keys/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const DELETE = withApi(endpoints.revokeApiKey, async ({ db, auth, params, requestId }) =>
  json(200, await revokeApiKey(db, { auth, requestId }, params.keyId)),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
