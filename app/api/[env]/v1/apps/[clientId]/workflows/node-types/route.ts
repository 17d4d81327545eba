import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/endpoints";
import { NODE_TYPE_DEFINITIONS } from "@/lib/workflows/node-types";

export const GET = withApi(endpoints.listNodeTypes, async ({ db, auth, params }) => {
  await getOwnedApp(db, auth, params.clientId);
  return json(200, NODE_TYPE_DEFINITIONS);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
