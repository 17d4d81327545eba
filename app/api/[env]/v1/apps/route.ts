import { ZCreateApp, ZListAppsQuery } from "@/lib/apps/schema";
import { createApp, listApps } from "@/lib/apps/service";
import { json, withApi } from "@/lib/http/api";

export const GET = withApi({ auth: "workspace", query: ZListAppsQuery }, async ({ db, auth, query }) =>
  json(200, await listApps(db, auth, query)),
);

export const POST = withApi(
  { auth: "workspace", body: ZCreateApp, idempotent: true },
  async ({ db, auth, body, requestId, url }) => {
    const app = await createApp(db, { auth, requestId }, { name: body?.name });
    return json(201, app, { Location: `${url.pathname}/${app.clientId}` });
  },
);
