// The REST return of an ended session, for the browser it is bound to: answered once, with the
// session's one authorization code when completed (lib/verifications/return.ts). Anything else
// — another browser, a second visit, nowhere to go — shows the hosted page's final view.
import { getDb } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { hostedSecretFrom } from "@/lib/hosted/binding";
import { seeOther, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { answerReturn } from "@/lib/hosted/session";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";
import { limitHostedAction } from "@/lib/rate-limit/requests";

export const dynamic = "force-dynamic";

export const GET = pipeline(HOSTED, async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  const limited = await limitHostedAction(request, id);
  if (limited) return limited;
  if (!VERIFICATION_ID.test(id)) return textResponse(404, "Verification not found");
  const db = getDb();
  if (!(await servesVerification(db, request.headers, id)))
    return textResponse(404, "Verification not found");
  const url = await answerReturn(db, id, hostedSecretFrom(request));
  return seeOther(url ?? `/verify/${id}`);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
