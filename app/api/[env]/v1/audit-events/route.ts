import * as endpoints from "@/lib/audit/endpoints";
import { listAuditEvents } from "@/lib/audit/log";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.listAuditEvents, async ({ db, auth, query }) =>
  json(200, await listAuditEvents(db, auth, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
