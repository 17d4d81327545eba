import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/operators/endpoints";
import { listWorkspacesForOperator } from "@/lib/operators/workspaces";

export const GET = withApi(endpoints.listWorkspacesForOperator, async ({ db, env, query }) =>
  json(200, await listWorkspacesForOperator(db, env, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
