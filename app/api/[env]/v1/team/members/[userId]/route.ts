import { json, otherMethods, withApi } from "@/lib/http/api";
import * as api from "@/lib/team/endpoints";
import { changeMemberRole, removeMember } from "@/lib/team/members";

export const PATCH = withApi(api.updateTeamMember, async ({ db, auth, body, params, requestId }) =>
  json(200, await changeMemberRole(db, { auth, requestId }, params.userId!, body.role)),
);

export const DELETE = withApi(api.removeTeamMember, async ({ db, auth, params, requestId }) =>
  json(200, await removeMember(db, { auth, requestId }, params.userId!)),
);

export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
