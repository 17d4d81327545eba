// Polled by the hosted page: the session's status, and where to go once it has ended.
import { getDb } from "@/lib/db/client";
import { jsonResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { readHostedStatus } from "@/lib/hosted/session";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const status = VERIFICATION_ID.test(id) ? await readHostedStatus(getDb(), id) : null;
  if (!status)
    return jsonResponse(404, { error: { code: "RESOURCE_NOT_FOUND", message: "Verification not found" } });
  return jsonResponse(200, status);
}
