// POST {base_url}/token — the REST code exchange. OAuth error bodies, not the REST envelope, so
// it does not go through withApi (lib/oidc/rest-token.ts holds the rules).
import { routeNotFound, type RouteContext } from "@/lib/http/api";
import { parseEnvironment } from "@/lib/environments";
import { handleRestTokenRequest } from "@/lib/oidc/rest-token";

export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { env } = await context.params;
  const environment = parseEnvironment(typeof env === "string" ? env : undefined);
  if (!environment) return routeNotFound(request);
  return handleRestTokenRequest(request, environment);
}
