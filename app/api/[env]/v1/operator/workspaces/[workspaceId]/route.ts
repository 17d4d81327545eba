import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/operators/endpoints";
import { getWorkspaceForOperator } from "@/lib/operators/workspaces";

export const GET = withApi(endpoints.getWorkspaceForOperator, async ({ db, env, params }) =>
  json(200, await getWorkspaceForOperator(db, env, params.workspaceId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
