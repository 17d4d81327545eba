import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { redeliverDelivery } from "@/lib/webhooks/log/service";
import * as endpoints from "@/lib/webhooks/log/endpoints";

export const POST = withApi(endpoints.redeliverWebhookDelivery, async ({ db, auth, params, requestId }) => {
  const app = await getOwnedApp(db, auth, params.clientId);
  return json(202, await redeliverDelivery(db, { auth, requestId }, app, params.deliveryId));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
