import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verification-log/endpoints";
import { getVerificationActivity } from "@/lib/verification-log/service";

export const GET = withApi(endpoints.getVerificationActivity, async ({ db, auth, params }) =>
  json(200, await getVerificationActivity(db, auth, params.verificationId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
