/** GET|POST /oidc/{env}/userinfo: the verification's userinfo for a Bearer access token. */
import { handleUserinfoRequest } from "@/lib/oidc/provider/userinfo";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";

export const dynamic = "force-dynamic";

async function handle(request: Request, context: TOidcContext): Promise<Response> {
  const env = await oidcEnvironment(context);
  return env ? handleUserinfoRequest(request, env) : notFoundResponse();
}

export const GET = handle;
export const POST = handle;
