/** POST /oidc/{env}/par: the pushed authorization request endpoint (RFC 9126). */
import { handlePushedAuthorizationRequest } from "@/lib/oidc/provider/par";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OAUTH } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const POST = pipeline(OAUTH, async (request: Request, context: TOidcContext): Promise<Response> => {
  const env = await oidcEnvironment(context);
  return env ? handlePushedAuthorizationRequest(request, env) : notFoundResponse();
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OAUTH, { POST });
