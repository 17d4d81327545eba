import { json, otherMethods, withApi } from "@/lib/http/api";
import { clientIp } from "@/lib/rate-limit";
import * as endpoints from "@/lib/team/endpoints";
import { lookupPasswordReset } from "@/lib/team/password-reset";

export const POST = withApi(endpoints.lookupPasswordReset, async ({ db, body, request }) =>
  json(200, await lookupPasswordReset(db, { token: body.token, ip: clientIp(request.headers) })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
