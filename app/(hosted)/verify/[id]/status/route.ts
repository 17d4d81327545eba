// Polled by the hosted page: the session's status, and where to go once it has ended.
import { kysely } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { hostedSecretFrom } from "@/lib/hosted/binding";
import { jsonResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { readHostedStatus } from "@/lib/hosted/session";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = pipeline(HOSTED, async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  const status =
    VERIFICATION_ID.test(id) && (await servesVerification(kysely(), request.headers, id))
      ? // `next` only for the browser the session is bound to (lib/hosted/binding.ts)
        await readHostedStatus(kysely(), id, hostedSecretFrom(request))
      : null;
  if (!status)
    return jsonResponse(404, { error: { code: "RESOURCE_NOT_FOUND", message: "Verification not found" } });
  return jsonResponse(200, status);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
