import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { getOwnedVerification, readUserinfo } from "@/lib/verifications/read";

export const GET = withApi(endpoints.getUserinfo, async ({ db, auth, params }) =>
  json(200, readUserinfo(await getOwnedVerification(db, auth, params.verificationId))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
