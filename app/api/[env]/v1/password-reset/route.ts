import { json, otherMethods, withApi } from "@/lib/http/api";
import { clientIp } from "@/lib/rate-limit";
import * as endpoints from "@/lib/team/endpoints";
import { requestPasswordReset } from "@/lib/team/password-reset";

export const POST = withApi(endpoints.requestPasswordReset, async ({ db, body, request }) =>
  json(202, await requestPasswordReset(db, { email: body.email, ip: clientIp(request.headers) })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
