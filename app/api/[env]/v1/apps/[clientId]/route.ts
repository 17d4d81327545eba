import * as endpoints from "@/lib/apps/endpoints";
import { toAppJson } from "@/lib/apps/serialize";
import { deleteApp, getOwnedAppView, updateApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.getApp, async ({ db, auth, params }) =>
  json(200, toAppJson(await getOwnedAppView(db, auth, params.clientId))),
);

export const PATCH = withApi(endpoints.updateApp, async ({ db, auth, body, params, requestId }) =>
  json(200, await updateApp(db, { auth, requestId }, params.clientId, body)),
);

export const DELETE = withApi(endpoints.deleteApp, async ({ db, auth, params, requestId }) =>
  json(200, await deleteApp(db, { auth, requestId }, params.clientId)),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
