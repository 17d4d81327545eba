// Binds this browser to the session (lib/hosted/binding.ts), then shows the hosted page. The
// OpenID Provider sends the browser that started a sign-in here with its one-time hand-off (?h=);
// the page sends the first browser of a REST session here.
import { kysely } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/kysely";
import { hostedAction } from "@/lib/hosted/action-gate";
import { bindHostedBrowser, hostedBindingCookie } from "@/lib/hosted/binding";
import { seeOther } from "@/lib/hosted/headers";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = hostedAction({ formPost: false }, async (request, id) => {
  const handoff = new URL(request.url).searchParams.get("h") ?? undefined;
  const secret = await inTransaction(kysely(), (tx) => bindHostedBrowser(tx, id, handoff));
  return seeOther(`/verify/${id}`, secret ? { "Set-Cookie": hostedBindingCookie(id, secret) } : {});
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
