// The SAML assertion consumer service (HTTP-POST) of a provider's saml connection. The IdP's post
// is cross-site and carries no cookie of ours: the session (or an operator's test sign-in) comes
// from the RelayState.
import { completeTestSignInPost } from "@/lib/connections/test-sign-in";
import { isTestSignInRelayState } from "@/lib/connections/test-sign-in-hand-offs";
import { kysely } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { seeOther, textResponse } from "@/lib/hosted/headers";
import { readFormBody } from "@/lib/http/body";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";
import { limitHostedAction } from "@/lib/rate-limit/requests";
import { completeSamlSignIn, SAML_FORM_MAX_BYTES, sessionOfRelayState } from "@/lib/verifications/saml";

export const dynamic = "force-dynamic";

type TContext = { params: Promise<{ env: string; providerId: string }> };

export const POST = pipeline(HOSTED, async (request: Request, ctx: TContext) => {
  const limited = await limitHostedAction(request, "");
  if (limited) return limited;
  const { env, providerId } = await ctx.params;
  const form = await readFormBody(request, { maxBytes: SAML_FORM_MAX_BYTES });
  const relayState = form.get("RelayState") ?? undefined;
  // an operator's test sign-in through the connection (back-office): its RelayState names its hand-off
  if (isTestSignInRelayState(relayState)) {
    const done = await completeTestSignInPost(
      kysely(),
      { env, providerId },
      { SAMLResponse: form.get("SAMLResponse") ?? undefined, RelayState: relayState },
    );
    if (!done) return textResponse(400, "No test sign-in in progress for this RelayState");
    const response = seeOther(done.location);
    for (const cookie of done.setCookies) response.headers.append("Set-Cookie", cookie);
    return response;
  }
  const id = sessionOfRelayState(relayState);
  const result =
    id && (await servesVerification(kysely(), request.headers, id))
      ? await completeSamlSignIn(
          { env, providerId },
          { SAMLResponse: form.get("SAMLResponse") ?? undefined, RelayState: relayState },
        )
      : ({ kind: "unknown" } as const);
  if (result.kind === "unknown") return textResponse(400, "No SAML sign-in in progress for this RelayState");
  return seeOther(`/verify/${result.verificationId}`);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { POST });
