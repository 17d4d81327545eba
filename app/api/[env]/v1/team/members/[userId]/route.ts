import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { changeMemberRole, removeMember } from "@/lib/team/members";

export const PATCH = withApi(endpoints.updateTeamMember, async ({ db, auth, body, params, requestId }) =>
  json(200, await changeMemberRole(db, { auth, requestId }, params.userId, body.role)),
);

export const DELETE = withApi(endpoints.removeTeamMember, async ({ db, auth, params, requestId }) =>
  json(200, await removeMember(db, { auth, requestId }, params.userId)),
);

export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
