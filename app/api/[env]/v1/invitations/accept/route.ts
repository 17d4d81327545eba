import { json, otherMethods, withApi } from "@/lib/http/api";
import { clientIp } from "@/lib/rate-limit";
import * as endpoints from "@/lib/team/endpoints";
import { acceptInvitation } from "@/lib/team/invitations";

export const POST = withApi(endpoints.acceptInvitation, async ({ db, body, request, requestId }) =>
  json(200, await acceptInvitation(db, { ...body, ip: clientIp(request.headers), requestId })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
