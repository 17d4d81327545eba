import { ZUpdateApp } from "@/lib/apps/schema";
import { deleteApp, getOwnedApp, updateApp } from "@/lib/apps/service";
import { toAppJson } from "@/lib/apps/serialize";
import { json, withApi } from "@/lib/http/api";

export const GET = withApi({ auth: "workspace" }, async ({ db, auth, params }) =>
  json(200, toAppJson(await getOwnedApp(db, auth, params.clientId!))),
);

export const PATCH = withApi(
  { auth: "workspace", body: ZUpdateApp },
  async ({ db, auth, body, params, requestId }) =>
    json(200, await updateApp(db, { auth, requestId }, params.clientId!, body)),
);

export const DELETE = withApi({ auth: "workspace" }, async ({ db, auth, params, requestId }) =>
  json(200, await deleteApp(db, { auth, requestId }, params.clientId!)),
);
