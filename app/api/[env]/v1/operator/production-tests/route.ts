import { json, otherMethods, withApi } from "@/lib/http/api";
import * as api from "@/lib/production-tests/endpoints";
import { listProductionTestsForOperator } from "@/lib/production-tests/service";

export const GET = withApi(api.listProductionTestsForOperator, async ({ db, env, query }) =>
  json(200, await listProductionTestsForOperator(db, env, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
