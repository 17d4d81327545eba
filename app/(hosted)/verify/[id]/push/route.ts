// Push flow: the identifier form. The identifier stays in the body; a refusal is only a flag.
import { getDb } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { isSameOrigin, seeOther, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { submitPushIdentifier } from "@/lib/hosted/session";
import { ApiError } from "@/lib/errors";
import { limitHostedAction } from "@/lib/rate-limit/requests";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED, HOSTED_FORM_MAX_BYTES } from "@/lib/http/surfaces";
import { readFormBody } from "@/lib/http/body";

export const POST = pipeline(HOSTED, async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  const limited = await limitHostedAction(request, id);
  if (limited) return limited;
  if (!isSameOrigin(request)) return textResponse(403, "Cross-site request refused");
  if (!VERIFICATION_ID.test(id)) return textResponse(404, "Verification not found");
  if (!(await servesVerification(getDb(), request.headers, id)))
    return textResponse(404, "Verification not found");
  const form = await readFormBody(request, { maxBytes: HOSTED_FORM_MAX_BYTES });
  try {
    const ok = await submitPushIdentifier(getDb(), id, form.get("identifier"));
    return seeOther(ok ? `/verify/${id}` : `/verify/${id}?error=identifier`);
  } catch (err) {
    if (err instanceof ApiError && err.code === "RESOURCE_NOT_FOUND") return textResponse(404, err.message);
    if (err instanceof ApiError) return textResponse(409, err.message);
    throw err;
  }
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { POST });
