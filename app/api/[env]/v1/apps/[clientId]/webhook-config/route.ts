import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as api from "@/lib/webhooks/endpoints";
import { getWebhookConfig, updateWebhookConfig } from "@/lib/webhooks/config";

export const GET = withApi(api.getWebhookConfig, async ({ db, auth, params }) =>
  json(200, getWebhookConfig(await getOwnedApp(db, auth, params.clientId!), auth)),
);

export const PATCH = withApi(api.updateWebhookConfig, async ({ db, auth, body, params, requestId }) => {
  const app = await getOwnedApp(db, auth, params.clientId!);
  return json(200, await updateWebhookConfig(db, { auth, requestId }, app, body));
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
