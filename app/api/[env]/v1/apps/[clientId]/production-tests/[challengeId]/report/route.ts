import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/production-tests/endpoints";
import { getProductionTestReport } from "@/lib/production-tests/service";

export const GET = withApi(endpoints.getProductionTestReport, async ({ db, auth, params }) =>
  json(200, await getProductionTestReport(db, auth, params.clientId, params.challengeId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
