import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/production-tests/endpoints";
import { listProductionTestsForOperator } from "@/lib/production-tests/service";

export const GET = withApi(endpoints.listProductionTestsForOperator, async ({ db, env, query }) =>
  json(200, await listProductionTestsForOperator(db, env, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
