/** POST /oidc/{env}/token: the token endpoint (authorization_code). */
import { handleOidcTokenRequest } from "@/lib/oidc/provider/token";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";

export const dynamic = "force-dynamic";

export async function POST(request: Request, context: TOidcContext): Promise<Response> {
  const env = await oidcEnvironment(context);
  return env ? handleOidcTokenRequest(request, env) : notFoundResponse();
}
