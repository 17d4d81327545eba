// Push flow: the identifier form. The identifier stays in the body; a refusal is only a flag.
import { kysely } from "@/lib/db/client";
import { hostedAction } from "@/lib/hosted/action-gate";
import { seeOther, textResponse } from "@/lib/hosted/headers";
import { submitPushIdentifier } from "@/lib/hosted/session";
import { ApiError } from "@/lib/errors";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED, HOSTED_FORM_MAX_BYTES } from "@/lib/http/surfaces";
import { readFormBody } from "@/lib/http/body";

export const POST = hostedAction({ formPost: true }, async (request, id) => {
  const form = await readFormBody(request, { maxBytes: HOSTED_FORM_MAX_BYTES });
  try {
    const ok = await submitPushIdentifier(kysely(), id, form.get("identifier"));
    return seeOther(ok ? `/verify/${id}` : `/verify/${id}?error=identifier`);
  } catch (err) {
    if (err instanceof ApiError && err.code === "RESOURCE_NOT_FOUND") return textResponse(404, err.message);
    if (err instanceof ApiError) return textResponse(409, err.message);
    throw err;
  }
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { POST });
