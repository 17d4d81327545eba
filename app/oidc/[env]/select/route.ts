/** GET /oidc/{env}/select: the branded provider picker of an authorization request without `provider`. */
import { handleAuthorizationRequest } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: TOidcContext): Promise<Response> {
  const env = await oidcEnvironment(context);
  return env ? handleAuthorizationRequest(request, env, { picker: "render" }) : notFoundResponse();
}
