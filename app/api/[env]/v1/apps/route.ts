import * as endpoints from "@/lib/apps/endpoints";
import { createApp, listApps } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.listApps, async ({ db, auth, query }) =>
  json(200, await listApps(db, auth, query)),
);

export const POST = withApi(endpoints.createApp, async ({ db, auth, body, requestId, url }) => {
  const app = await createApp(db, { auth, requestId }, { name: body?.name });
  return json(201, app, { Location: `${url.pathname}/${app.clientId}` });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
