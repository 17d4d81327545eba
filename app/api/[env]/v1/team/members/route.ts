import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { listMembers } from "@/lib/team/members";

export const GET = withApi(endpoints.listTeamMembers, async ({ db, auth, query }) =>
  json(200, await listMembers(db, auth, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
