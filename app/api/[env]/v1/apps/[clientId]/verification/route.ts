import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { getVerificationSettings, updateVerificationSettings } from "@/lib/workflows/service";

export const GET = withApi(endpoints.getVerificationSettings, async ({ db, auth, params }) =>
  json(200, await getVerificationSettings(db, auth, params.clientId)),
);

export const PATCH = withApi(
  endpoints.updateVerificationSettings,
  async ({ db, auth, params, body, requestId }) =>
    json(200, await updateVerificationSettings(db, { auth, requestId }, params.clientId, body)),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
