import { getWorkspace } from "@/lib/apps/api";
import { json, withApi } from "@/lib/http/api";
import { getWorkspaceSummary } from "@/lib/workspaces";

export const GET = withApi(getWorkspace, async ({ db, auth }) =>
  json(200, await getWorkspaceSummary(db, auth)),
);
