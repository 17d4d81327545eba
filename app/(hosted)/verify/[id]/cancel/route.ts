// The end-user's Cancel (a plain form post, so it works without JavaScript).
import { kysely } from "@/lib/db/client";
import { hostedAction } from "@/lib/hosted/action-gate";
import { seeOther, textResponse } from "@/lib/hosted/headers";
import { cancelByUser } from "@/lib/hosted/session";
import { ApiError } from "@/lib/errors";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const POST = hostedAction({ formPost: true }, async (_request, id) => {
  try {
    await cancelByUser(kysely(), id);
  } catch (err) {
    if (err instanceof ApiError && err.code === "RESOURCE_NOT_FOUND") return textResponse(404, err.message);
    throw err;
  }
  return seeOther(`/verify/${id}`);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { POST });
