import * as endpoints from "@/lib/api-keys/endpoints";
import { createApiKey, listApiKeys } from "@/lib/api-keys/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.listApiKeys, async ({ db, auth, query }) =>
  json(200, await listApiKeys(db, auth, query)),
);

export const POST = withApi(endpoints.createApiKey, async ({ db, auth, body, requestId }) =>
  json(201, await createApiKey(db, { auth, requestId }, body)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
