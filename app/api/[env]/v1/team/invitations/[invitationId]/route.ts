import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { revokeInvitation } from "@/lib/team/invitations";

export const DELETE = withApi(endpoints.revokeInvitation, async ({ db, auth, params, requestId }) =>
  json(200, await revokeInvitation(db, { auth, requestId }, params.invitationId)),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
