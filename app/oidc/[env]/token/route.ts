/** POST /oidc/{env}/token: the token endpoint (authorization_code). */
import { handleOidcTokenRequest } from "@/lib/oidc/provider/token";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OAUTH } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const POST = pipeline(OAUTH, async (request: Request, context: TOidcContext): Promise<Response> => {
  const env = await oidcEnvironment(context);
  return env ? handleOidcTokenRequest(request, env) : notFoundResponse();
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OAUTH, { POST });
