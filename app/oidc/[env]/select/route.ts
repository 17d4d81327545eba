/** GET /oidc/{env}/select: the branded provider picker of an authorization request without `provider`. */
import { handleAuthorizationRequest } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OP_PAGE, opAnswer } from "@/app/oidc/_lib/op-page";

export const dynamic = "force-dynamic";

export const GET = pipeline(OP_PAGE, async (request: Request, context: TOidcContext): Promise<Response> => {
  const env = await oidcEnvironment(context);
  return env
    ? opAnswer(request, await handleAuthorizationRequest(request, env, { picker: "render" }))
    : notFoundResponse();
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OP_PAGE, { GET });
