import { ApiError } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { simulateVerification } from "@/lib/verifications/endpoints";
import { simulateVerification as simulate, toStatusRecord } from "@/lib/verifications/service";

// sandbox only: in production the test helpers do not exist
export const POST = withApi(simulateVerification, async ({ db, auth, body, params, env, url }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for POST ${url.pathname}`);
  return json(200, toStatusRecord(await simulate(db, auth, params.verificationId!, body)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
