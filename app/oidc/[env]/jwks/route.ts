/** GET /oidc/{env}/jwks: the public signing keys. */
import { handleJwks } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../env";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: TOidcContext): Promise<Response> {
  const env = await oidcEnvironment(context);
  return env ? handleJwks(env) : notFoundResponse();
}
