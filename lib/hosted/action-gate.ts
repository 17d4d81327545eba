/**
 * The route handler of a hosted action on `/verify/{id}/…` or a simulator button that answers in
 * text (the wallet's fetches answer JSON and keep their own guard; the status poll is not an
 * action). Before the action runs, in this order: the action rate limit (429, before any
 * database read), for form posts the same-origin check (403), then 404 unless `id` is a
 * verification id of a session this host serves (lib/domains/served-app.ts).
 */
import { kysely } from "../db/client";
import { servesVerification } from "../domains/served-app";
import { pipeline } from "../http/pipeline";
import { HOSTED } from "../http/surfaces";
import { limitHostedAction } from "../rate-limit/requests";
import { isSameOrigin, textResponse, VERIFICATION_ID, verificationNotFound } from "./headers";

type TVerifyRouteContext = { params: Promise<{ id: string }> };

/** The answer that refuses the action, or undefined when it may go on. */
async function refusal(request: Request, id: string, formPost: boolean): Promise<Response | undefined> {
  const limited = await limitHostedAction(request, id);
  if (limited) return limited;
  if (formPost && !isSameOrigin(request)) return textResponse(403, "Cross-site request refused");
  if (!VERIFICATION_ID.test(id) || !(await servesVerification(kysely(), request.headers, id)))
    return verificationNotFound();
  return undefined;
}

/** `action` behind the checks above, on the hosted surface of the request pipeline. */
export function hostedAction(
  options: { formPost: boolean },
  action: (request: Request, id: string) => Promise<Response>,
) {
  return pipeline(HOSTED, async (request: Request, ctx: TVerifyRouteContext) => {
    const { id } = await ctx.params;
    return (await refusal(request, id, options.formPost)) ?? action(request, id);
  });
}
