import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { createInvitation, listInvitations } from "@/lib/team/invitations";

export const GET = withApi(endpoints.listInvitations, async ({ db, auth, query }) =>
  json(200, await listInvitations(db, auth, query)),
);

export const POST = withApi(endpoints.createInvitation, async ({ db, auth, body, requestId }) =>
  json(201, await createInvitation(db, { auth, requestId }, body)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
