// POST {base_url}/token — the REST code exchange. OAuth error bodies, not the REST envelope, so
// it does not go through withApi (lib/oidc/rest-token.ts holds the rules).
import { routeNotFound, type RouteContext } from "@/lib/http/api";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OAUTH } from "@/lib/http/surfaces";
import { parseEnvironment } from "@/lib/environments";
import { handleRestTokenRequest } from "@/lib/oidc/rest-token";

export const POST = pipeline(OAUTH, async (request, context: RouteContext): Promise<Response> => {
  const { env } = await context.params;
  const environment = parseEnvironment(typeof env === "string" ? env : undefined);
  if (!environment) return routeNotFound(request);
  return handleRestTokenRequest(request, environment);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OAUTH, { POST });
