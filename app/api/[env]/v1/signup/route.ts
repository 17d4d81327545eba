import { json, otherMethods, withApi } from "@/lib/http/api";
import { clientIp } from "@/lib/rate-limit";
import * as endpoints from "@/lib/team/endpoints";
import { signUp } from "@/lib/team/signup";

export const POST = withApi(endpoints.signUp, async ({ db, body, request, requestId }) => {
  const result = await signUp(db, { ...body, ip: clientIp(request.headers), requestId });
  return json(result.status, result.body);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
