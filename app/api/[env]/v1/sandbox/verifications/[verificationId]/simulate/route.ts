import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { simulateVerification, toStatusRecord } from "@/lib/verifications/service";

export const POST = withApi(endpoints.simulateVerification, async ({ db, auth, body, params }) => {
  return json(200, toStatusRecord(await simulateVerification(db, auth, params.verificationId, body)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
