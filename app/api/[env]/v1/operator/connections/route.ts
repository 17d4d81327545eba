import * as endpoints from "@/lib/connections/endpoints";
import { listConnections } from "@/lib/connections/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.listConnections, async ({ db, env }) =>
  json(200, await listConnections(db, env)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
