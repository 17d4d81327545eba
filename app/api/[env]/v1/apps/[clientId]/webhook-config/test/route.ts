import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { sendTestEvent } from "@/lib/webhooks/log/service";
import * as endpoints from "@/lib/webhooks/log/endpoints";

export const POST = withApi(endpoints.sendTestWebhook, async ({ db, auth, params, requestId }) => {
  const app = await getOwnedApp(db, auth, params.clientId);
  return json(202, await sendTestEvent(db, { auth, requestId }, app));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
