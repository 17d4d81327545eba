import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/stats/endpoints";
import { getVerificationStats } from "@/lib/stats/verifications";

export const GET = withApi(endpoints.getVerificationStats, async ({ db, auth, query }) =>
  json(200, await getVerificationStats(db, auth, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
