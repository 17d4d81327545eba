import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { getDelivery } from "@/lib/webhooks/log/service";
import * as endpoints from "@/lib/webhooks/log/endpoints";

export const GET = withApi(endpoints.getWebhookDelivery, async ({ db, auth, params }) => {
  const app = await getOwnedApp(db, auth, params.clientId);
  return json(200, await getDelivery(db, app, params.deliveryId));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
