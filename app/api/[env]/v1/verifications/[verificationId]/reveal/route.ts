import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verification-log/endpoints";
import { revealUserinfo } from "@/lib/verification-log/service";

export const POST = withApi(endpoints.revealVerificationUserinfo, async ({ db, auth, params, requestId }) =>
  json(200, await revealUserinfo(db, { auth, requestId }, params.verificationId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
