import * as endpoints from "@/lib/apps/endpoints";
import { rotateClientSecret } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const POST = withApi(endpoints.rotateClientSecret, async ({ db, auth, params, requestId }) =>
  json(200, await rotateClientSecret(db, { auth, requestId }, params.clientId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
