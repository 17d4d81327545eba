import * as endpoints from "@/lib/apps/endpoints";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { getWorkspaceSummary, renameWorkspace } from "@/lib/workspaces";

export const GET = withApi(endpoints.getWorkspace, async ({ db, auth }) =>
  json(200, await getWorkspaceSummary(db, auth)),
);

export const PATCH = withApi(endpoints.updateWorkspace, async ({ db, auth, body, requestId }) =>
  json(200, await renameWorkspace(db, auth, body, requestId)),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
