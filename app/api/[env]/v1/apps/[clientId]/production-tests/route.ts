import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/production-tests/endpoints";
import { createProductionTest, listProductionTests } from "@/lib/production-tests/service";

export const GET = withApi(endpoints.listProductionTests, async ({ db, auth, params }) =>
  json(200, await listProductionTests(db, auth, params.clientId)),
);

export const POST = withApi(endpoints.createProductionTest, async ({ db, auth, body, params, requestId }) =>
  json(201, await createProductionTest(db, { auth, requestId }, params.clientId, body)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
