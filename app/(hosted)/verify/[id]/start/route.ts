// Redirect flow: "Continue to <provider>". Sandbox → its simulator; production → the upstream of
// the provider's connection (oidc: its OpenID Provider; saml: its identity provider).
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { hostedAction } from "@/lib/hosted/action-gate";
import { seeOther, textResponse } from "@/lib/hosted/headers";
import { hostedSecretFrom } from "@/lib/hosted/binding";
import { leaveForProvider, mayStart } from "@/lib/hosted/session";
import { UPSTREAM_COOKIE } from "@/lib/hosted/upstream-cookie";
import { ApiError } from "@/lib/errors";
import { beginSamlSignIn, usesSaml } from "@/lib/verifications/saml";
import { beginUpstreamAuthentication, usesUpstream } from "@/lib/verifications/upstream";
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
  if (!(await usesUpstream(v))) {
    if (!(await usesSaml(v))) return seeOther(`/verify/${id}`);
    // no cookie: the IdP's cross-site post finds the session from its RelayState
    try {
      return seeOther((await beginSamlSignIn(id)).url);
    } catch (err) {
      if (err instanceof ApiError) return seeOther(`/verify/${id}`);
      throw err;
    }
  }
  try {
    const { url } = await beginUpstreamAuthentication(id);
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
