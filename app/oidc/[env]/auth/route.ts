/** GET|POST /oidc/{env}/auth: the authorization endpoint (OIDC Core §3.1.2). */
import { handleAuthorizationRequest } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OP_PAGE, opAnswer } from "@/app/oidc/_lib/op-page";

export const dynamic = "force-dynamic";

const handle = pipeline(OP_PAGE, async (request: Request, context: TOidcContext): Promise<Response> => {
  const env = await oidcEnvironment(context);
  return env
    ? opAnswer(request, await handleAuthorizationRequest(request, env, { picker: "redirect" }))
    : notFoundResponse();
});

export const GET = handle;
export const POST = handle;

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OP_PAGE, { GET, POST });
