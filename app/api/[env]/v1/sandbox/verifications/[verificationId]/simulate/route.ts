import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { toStatusRecord } from "@/lib/verifications/read";
import { simulateVerification } from "@/lib/verifications/sandbox";

export const POST = withApi(endpoints.simulateVerification, async ({ db, auth, body, params }) => {
  return json(200, toStatusRecord(await simulateVerification(db, auth, params.verificationId, body)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
