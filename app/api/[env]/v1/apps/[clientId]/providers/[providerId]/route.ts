import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/providers/endpoints";
import { setProviderEnabled } from "@/lib/providers/app-providers";

export const PATCH = withApi(endpoints.updateAppProvider, async ({ db, auth, body, params, requestId }) =>
  json(
    200,
    await setProviderEnabled(db, { auth, requestId }, params.clientId, params.providerId, body.enabled),
  ),
);

export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods({ PATCH });
