import { getOwnedApp } from "@/lib/apps/service";
import { json, withApi } from "@/lib/http/api";
import { sendTestEvent } from "@/lib/webhooks/deliveries";
import { sendTestWebhook } from "@/lib/webhooks/deliveries-api";

export const POST = withApi(sendTestWebhook, async ({ db, auth, params, requestId }) => {
  const app = await getOwnedApp(db, auth, params.clientId!);
  return json(202, await sendTestEvent(db, { auth, requestId }, app));
});
