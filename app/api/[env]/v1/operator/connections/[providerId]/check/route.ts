import { checkConnection } from "@/lib/connections/check";
import * as endpoints from "@/lib/connections/endpoints";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const POST = withApi(endpoints.checkConnection, async ({ db, env, params }) =>
  json(200, await checkConnection(db, env, params.providerId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
