// Redirect flow: "Continue to <provider>". Sandbox → its simulator; production → the upstream of
// the provider's connection, through its adapter's sign-in (lib/verifications/sign-in.ts).
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { hostedAction } from "@/lib/hosted/action-gate";
import { seeOther, textResponse } from "@/lib/hosted/headers";
import { hostedSecretFrom } from "@/lib/hosted/binding";
import { leaveForProvider, mayStart } from "@/lib/hosted/session";
import { UPSTREAM_COOKIE } from "@/lib/hosted/upstream-cookie";
import { ApiError } from "@/lib/errors";
import { beginSignIn, sessionAnswerChannel } from "@/lib/verifications/sign-in";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = hostedAction({ formPost: false }, async (request, id) => {
  const db = getDb();
  // a sign-in started in another browser does not continue here (its page says so)
  if (!(await mayStart(db, id, hostedSecretFrom(request)))) return seeOther(`/verify/${id}`);
  const v = await db.verification.findUnique({
    where: { id },
    select: { id: true, environment: true, providerId: true, flowType: true },
  });
  if (!v) return textResponse(404, "Verification not found");
  if (v.environment === "sandbox") {
    await leaveForProvider(db, id);
    return seeOther(`/sandbox/verify/${id}?flow=${v.flowType}`);
  }
  // the session's connection's adapter, if it signs in (oidc, saml …): lib/verifications/sign-in.ts
  if (!(await sessionAnswerChannel(v))) return seeOther(`/verify/${id}`);
  try {
    const { url, answer } = await beginSignIn(id);
    // a form post (SAML) is cross-site and carries no cookie: it finds the session from its
    // RelayState; a redirect's callback finds it from this cookie
    if (answer === "form_post") return seeOther(url);
    return seeOther(url, {
      "Set-Cookie": `${UPSTREAM_COOKIE}=${id}; Path=/verify; HttpOnly; SameSite=Lax; Max-Age=1800${
        config().https ? "; Secure" : ""
      }`,
    });
  } catch (err) {
    if (err instanceof ApiError) return seeOther(`/verify/${id}`);
    throw err;
  }
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
