import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/log/endpoints";
import { createTestVerification } from "@/lib/verifications/log/service";

export const POST = withApi(
  endpoints.createTestVerification,
  async ({ db, auth, body, params, requestId, logVerification }) => {
    const created = await createTestVerification(db, { auth, requestId }, params.clientId, body ?? {});
    logVerification(created.verificationId);
    return json(201, created);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
