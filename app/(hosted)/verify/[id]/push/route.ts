// Push flow: the identifier form. The identifier stays in the body; a refusal is only a flag.
import { getDb } from "@/lib/db/client";
import { isSameOrigin, seeOther, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { submitPushIdentifier } from "@/lib/hosted/session";
import { ApiError } from "@/lib/http/errors";

export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  if (!isSameOrigin(request)) return textResponse(403, "Cross-site request refused");
  if (!VERIFICATION_ID.test(id)) return textResponse(404, "Verification not found");
  const form = await request.formData().catch(() => null);
  try {
    const ok = await submitPushIdentifier(getDb(), id, form?.get("identifier"));
    return seeOther(ok ? `/verify/${id}` : `/verify/${id}?error=identifier`);
  } catch (err) {
    if (err instanceof ApiError && err.code === "RESOURCE_NOT_FOUND") return textResponse(404, err.message);
    if (err instanceof ApiError) return textResponse(409, err.message);
    throw err;
  }
}
