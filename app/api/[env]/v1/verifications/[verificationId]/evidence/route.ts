import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { getOwnedVerification, readEvidence } from "@/lib/verifications/read";

export const GET = withApi(endpoints.getEvidence, async ({ db, auth, params }) =>
  json(200, readEvidence(await getOwnedVerification(db, auth, params.verificationId))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
