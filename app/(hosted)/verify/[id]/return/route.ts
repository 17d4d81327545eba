// The REST return of an ended session, for the browser it is bound to: answered once, with the
// session's one authorization code when completed (lib/verifications/return.ts). Anything else
// — another browser, a second visit, nowhere to go — shows the hosted page's final view.
import { kysely } from "@/lib/db/client";
import { hostedAction } from "@/lib/hosted/action-gate";
import { hostedSecretFrom } from "@/lib/hosted/binding";
import { seeOther } from "@/lib/hosted/headers";
import { answerReturn } from "@/lib/hosted/session";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = hostedAction({ formPost: false }, async (request, id) => {
  const db = kysely();
  const url = await answerReturn(db, id, hostedSecretFrom(request));
  return seeOther(url ?? `/verify/${id}`);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
