import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/log/endpoints";
import { cancelWorkspaceVerification } from "@/lib/verifications/log/service";

export const POST = withApi(
  endpoints.cancelVerificationByWorkspace,
  async ({ db, auth, params, requestId }) =>
    json(200, await cancelWorkspaceVerification(db, { auth, requestId }, params.verificationId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
