import { getOwnedApp } from "@/lib/apps/service";
import { json, withApi } from "@/lib/http/api";
import { getDelivery } from "@/lib/webhooks/deliveries";
import { getWebhookDelivery } from "@/lib/webhooks/deliveries-api";

export const GET = withApi(getWebhookDelivery, async ({ db, auth, params }) => {
  const app = await getOwnedApp(db, auth, params.clientId!);
  return json(200, await getDelivery(db, app, params.deliveryId!));
});
