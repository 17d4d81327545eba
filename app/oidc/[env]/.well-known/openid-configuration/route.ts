/** GET /oidc/{env}/.well-known/openid-configuration: the discovery document. */
import { handleDiscovery } from "@/lib/oidc/provider/documents";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../../env";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OAUTH } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = pipeline(OAUTH, async (request: Request, context: TOidcContext): Promise<Response> => {
  const env = await oidcEnvironment(context);
  return env ? handleDiscovery(request, env) : notFoundResponse();
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OAUTH, { GET });
