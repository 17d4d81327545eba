import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { readOwnedVerificationStatus } from "@/lib/verifications/read";
import { cancelVerification } from "@/lib/verifications/transitions";

export const GET = withApi(endpoints.getVerification, async ({ db, auth, params }) =>
  json(200, await readOwnedVerificationStatus(db, auth, params.verificationId)),
);

export const DELETE = withApi(endpoints.cancelVerification, async ({ db, auth, params }) => {
  await cancelVerification(db, auth, params.verificationId);
  return json(204);
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
