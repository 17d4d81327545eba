import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { listDeliveries } from "@/lib/webhooks/log/service";
import * as endpoints from "@/lib/webhooks/log/endpoints";

export const GET = withApi(endpoints.listWebhookDeliveries, async ({ db, auth, params, query }) => {
  const app = await getOwnedApp(db, auth, params.clientId);
  return json(200, await listDeliveries(db, app, query));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
