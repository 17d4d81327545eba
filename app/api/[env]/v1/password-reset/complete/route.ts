import { json, otherMethods, withApi } from "@/lib/http/api";
import { clientIp } from "@/lib/rate-limit";
import * as endpoints from "@/lib/team/endpoints";
import { completePasswordReset } from "@/lib/team/password-reset";

export const POST = withApi(endpoints.completePasswordReset, async ({ db, body, request, requestId }) =>
  json(200, await completePasswordReset(db, { ...body, ip: clientIp(request.headers), requestId })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
