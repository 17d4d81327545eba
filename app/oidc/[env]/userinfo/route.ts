/** GET|POST /oidc/{env}/userinfo: the verification's userinfo for a Bearer access token. */
import { handleUserinfoRequest } from "@/lib/oidc/provider/userinfo";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OAUTH } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

const handle = pipeline(OAUTH, async (request: Request, context: TOidcContext): Promise<Response> => {
  const env = await oidcEnvironment(context);
  return env ? handleUserinfoRequest(request, env) : notFoundResponse();
});

export const GET = handle;
export const POST = handle;

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OAUTH, { GET, POST });
