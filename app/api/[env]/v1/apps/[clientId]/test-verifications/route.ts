import { ApiError } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { createTestVerification as endpoint } from "@/lib/verification-log/endpoints";
import { createTestVerification } from "@/lib/verification-log/service";

// sandbox only, like the other test helpers: in production the route does not exist
export const POST = withApi(
  endpoint,
  async ({ db, auth, body, params, env, url, requestId, logVerification }) => {
    if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for POST ${url.pathname}`);
    const created = await createTestVerification(db, { auth, requestId }, params.clientId!, body ?? {});
    logVerification(created.verificationId);
    return json(201, created);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
