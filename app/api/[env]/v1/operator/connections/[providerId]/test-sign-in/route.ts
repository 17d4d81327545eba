import * as endpoints from "@/lib/connections/endpoints";
import { startTestSignIn } from "@/lib/connections/test-sign-in";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const POST = withApi(
  endpoints.startTestSignIn,
  async ({ db, auth, env, params, request, requestId }) => {
    const { url, setCookie } = await startTestSignIn(
      db,
      { auth, env, requestId },
      params.providerId,
      request.headers.get("cookie"),
    );
    // a form-post adapter's hand-off is kept server-side under its RelayState: no cookie then
    return json(200, { url }, setCookie ? { "Set-Cookie": setCookie } : {});
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
