// Binds this browser to the session (lib/hosted/binding.ts), then shows the hosted page. The
// OpenID Provider sends the browser that started a sign-in here with its one-time hand-off (?h=);
// the page sends the first browser of a REST session here.
import { getDb } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { bindHostedBrowser, hostedBindingCookie } from "@/lib/hosted/binding";
import { seeOther, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
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
  const handoff = new URL(request.url).searchParams.get("h") ?? undefined;
  const secret = await db.$transaction((tx) => bindHostedBrowser(tx, id, handoff));
  return seeOther(`/verify/${id}`, secret ? { "Set-Cookie": hostedBindingCookie(id, secret) } : {});
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
