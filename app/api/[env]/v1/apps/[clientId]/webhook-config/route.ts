import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/webhooks/config-endpoints";
import { getWebhookConfig, updateWebhookConfig } from "@/lib/webhooks/config";

export const GET = withApi(endpoints.getWebhookConfig, async ({ db, auth, params }) =>
  json(200, getWebhookConfig(await getOwnedApp(db, auth, params.clientId), auth)),
);

export const PATCH = withApi(endpoints.updateWebhookConfig, async ({ db, auth, body, params, requestId }) => {
  const app = await getOwnedApp(db, auth, params.clientId);
  return json(200, await updateWebhookConfig(db, { auth, requestId }, app, body));
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
