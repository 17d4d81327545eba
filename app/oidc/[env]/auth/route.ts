/** GET|POST /oidc/{env}/auth: the authorization endpoint (OIDC Core §3.1.2). */
import { handleAuthorizationRequest } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";

export const dynamic = "force-dynamic";

async function handle(request: Request, context: TOidcContext): Promise<Response> {
  const env = await oidcEnvironment(context);
  return env ? handleAuthorizationRequest(request, env, { picker: "redirect" }) : notFoundResponse();
}

export const GET = handle;
export const POST = handle;
