import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/log/endpoints";
import { getVerificationActivity } from "@/lib/verifications/log/service";

export const GET = withApi(endpoints.getVerificationActivity, async ({ db, auth, params }) =>
  json(200, await getVerificationActivity(db, auth, params.verificationId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
