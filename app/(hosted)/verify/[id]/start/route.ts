// Redirect flow: "Continue to <provider>". Sandbox → its simulator; production → the upstream.
import { getDb } from "@/lib/db/client";
import { seeOther, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { leaveForProvider } from "@/lib/hosted/session";
import { UPSTREAM_COOKIE } from "@/lib/hosted/upstream-cookie";
import { ApiError } from "@/lib/http/errors";
import { beginUpstreamAuthentication, usesUpstream } from "@/lib/verifications/upstream";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  if (!VERIFICATION_ID.test(id)) return textResponse(404, "Verification not found");
  const db = getDb();
  const v = await db.verification.findUnique({
    where: { id },
    select: { id: true, environment: true, providerId: true, flowType: true },
  });
  if (!v) return textResponse(404, "Verification not found");
  if (v.environment === "sandbox") {
    await leaveForProvider(db, id);
    return seeOther(`/sandbox/verify/${id}?flow=${v.flowType}`);
  }
  if (!usesUpstream(v)) return seeOther(`/verify/${id}`);
  try {
    const { url } = await beginUpstreamAuthentication(id);
    return seeOther(url, {
      "Set-Cookie": `${UPSTREAM_COOKIE}=${id}; Path=/verify; HttpOnly; SameSite=Lax; Max-Age=1800${
        process.env.PUBLIC_URL?.startsWith("https:") ? "; Secure" : ""
      }`,
    });
  } catch (err) {
    if (err instanceof ApiError) return seeOther(`/verify/${id}`);
    throw err;
  }
}
