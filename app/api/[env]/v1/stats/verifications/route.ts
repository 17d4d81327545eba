import { json, otherMethods, withApi } from "@/lib/http/api";
import { getVerificationStats as endpoint } from "@/lib/stats/endpoints";
import { getVerificationStats } from "@/lib/stats/verifications";

export const GET = withApi(endpoint, async ({ db, auth, query }) =>
  json(200, await getVerificationStats(db, auth, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
