// The end-user's Cancel (a plain form post, so it works without JavaScript).
import { getDb } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { isSameOrigin, seeOther, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { cancelByUser } from "@/lib/hosted/session";
import { ApiError } from "@/lib/errors";
import { limitHostedAction } from "@/lib/rate-limit/requests";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const POST = pipeline(HOSTED, async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  const limited = await limitHostedAction(request, id);
  if (limited) return limited;
  if (!isSameOrigin(request)) return textResponse(403, "Cross-site request refused");
  if (!VERIFICATION_ID.test(id)) return textResponse(404, "Verification not found");
  if (!(await servesVerification(getDb(), request.headers, id)))
    return textResponse(404, "Verification not found");
  try {
    await cancelByUser(getDb(), id);
  } catch (err) {
    if (err instanceof ApiError && err.code === "RESOURCE_NOT_FOUND") return textResponse(404, err.message);
    throw err;
  }
  return seeOther(`/verify/${id}`);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { POST });
