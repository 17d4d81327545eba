import { json, otherMethods, withApi } from "@/lib/http/api";
import { clientIp } from "@/lib/rate-limit";
import * as endpoints from "@/lib/team/endpoints";
import { confirmSignUp } from "@/lib/team/signup";

export const POST = withApi(endpoints.confirmSignUp, async ({ db, body, request, requestId }) =>
  json(201, await confirmSignUp(db, { ...body, ip: clientIp(request.headers), requestId })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
