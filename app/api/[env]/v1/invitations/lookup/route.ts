import { json, otherMethods, withApi } from "@/lib/http/api";
import { clientIp } from "@/lib/rate-limit";
import * as endpoints from "@/lib/team/endpoints";
import { lookupInvitation } from "@/lib/team/invitations";

export const POST = withApi(endpoints.lookupInvitation, async ({ db, body, request }) =>
  json(200, await lookupInvitation(db, { token: body.token, ip: clientIp(request.headers) })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
