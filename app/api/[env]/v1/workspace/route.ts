import { json, withApi } from "@/lib/http/api";
import { getWorkspaceSummary } from "@/lib/workspaces";

export const GET = withApi({ auth: "workspace" }, async ({ db, auth }) =>
  json(200, await getWorkspaceSummary(db, auth)),
);
