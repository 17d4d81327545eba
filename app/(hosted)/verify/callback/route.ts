// The one callback of every real upstream (register {PUBLIC_URL}/verify/callback there).
import { completeTestSignIn } from "@/lib/connections/test-sign-in";
import { isTestSignInCallback } from "@/lib/connections/test-sign-in-cookies";
import { kysely } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { seeOther, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { readCookie, UPSTREAM_COOKIE } from "@/lib/hosted/upstream-cookie";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { completeUpstreamAuthentication } from "@/lib/verifications/upstream";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = pipeline(HOSTED, async (request: Request) => {
  const cookies = request.headers.get("cookie");
  // an operator's test sign-in through a connection (back-office): no session behind it
  if (isTestSignInCallback(cookies, UPSTREAM_COOKIE)) {
    const done = await completeTestSignIn(kysely(), cookies, new URL(request.url));
    if (!done) return textResponse(400, "No test sign-in in progress in this browser");
    const response = seeOther(done.location);
    for (const cookie of done.setCookies) response.headers.append("Set-Cookie", cookie);
    return response;
  }
  const id = readCookie(cookies, UPSTREAM_COOKIE);
  if (!id || !VERIFICATION_ID.test(id) || !(await servesVerification(kysely(), request.headers, id)))
    return textResponse(400, "No verification in progress in this browser");
  const clear = { "Set-Cookie": `${UPSTREAM_COOKIE}=; Path=/verify; HttpOnly; SameSite=Lax; Max-Age=0` };
  try {
    await completeUpstreamAuthentication(id, new URL(request.url));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // the page shows whatever state the session is in; the reason goes to the log only
    logger.warn(
      { err: { code: err.code, message: err.message }, verificationId: id },
      "upstream callback refused",
    );
  }
  return seeOther(`/verify/${id}`, clear);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
