import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/operators/endpoints";
import { getProductionTestForOperator } from "@/lib/operators/production-tests";

export const GET = withApi(endpoints.getProductionTestForOperator, async ({ db, env, params, query }) =>
  json(200, await getProductionTestForOperator(db, env, params.requestId, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
