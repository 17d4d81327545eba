import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/webhooks/config-endpoints";
import { rotateWebhookSecret } from "@/lib/webhooks/config";

export const POST = withApi(endpoints.rotateWebhookSecret, async ({ db, auth, params, requestId }) => {
  const app = await getOwnedApp(db, auth, params.clientId);
  return json(200, await rotateWebhookSecret(db, { auth, requestId }, app));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
