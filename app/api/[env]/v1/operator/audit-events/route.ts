import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/operators/endpoints";
import { listOperatorAuditEvents } from "@/lib/operators/audit";

export const GET = withApi(endpoints.listOperatorAuditEvents, async ({ db, env, query }) =>
  json(200, await listOperatorAuditEvents(db, env, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
