import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/production-tests/endpoints";
import { scheduleProductionTest } from "@/lib/production-tests/service";

export const POST = withApi(
  endpoints.scheduleProductionTest,
  async ({ db, auth, env, body, params, requestId }) =>
    json(200, await scheduleProductionTest(db, { auth, env, requestId }, params.requestId, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
