import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/request-log/endpoints";
import { listRequestLogs } from "@/lib/request-log/list";

export const GET = withApi(endpoints.listRequestLogs, async ({ db, auth, query }) =>
  json(200, await listRequestLogs(db, auth, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
