import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/log/endpoints";
import { revealUserinfo } from "@/lib/verifications/log/service";

export const POST = withApi(endpoints.revealVerificationUserinfo, async ({ db, auth, params, requestId }) =>
  json(200, await revealUserinfo(db, { auth, requestId }, params.verificationId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
