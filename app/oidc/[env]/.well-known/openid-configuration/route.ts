/** GET /oidc/{env}/.well-known/openid-configuration: the discovery document. */
import { handleDiscovery } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../../env";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: TOidcContext): Promise<Response> {
  const env = await oidcEnvironment(context);
  return env ? handleDiscovery(request, env) : notFoundResponse();
}
