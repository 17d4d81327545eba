import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { ownedVerificationStatus, statusRowWithCredential } from "@/lib/verifications/read";
import { cancelVerification } from "@/lib/verifications/transitions";

// the session is read in the credential's statement: one round trip per poll
export const GET = withApi(
  endpoints.getVerification,
  { authWith: statusRowWithCredential },
  async ({ auth, params, authRow }) =>
    json(200, ownedVerificationStatus(auth, params.verificationId, authRow)),
);

export const DELETE = withApi(endpoints.cancelVerification, async ({ db, auth, params }) => {
  await cancelVerification(db, auth, params.verificationId);
  return json(204);
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
