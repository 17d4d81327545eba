/**
 * GET /api/tls/allowed?domain=<host> — the `ask` endpoint of a TLS-terminating proxy issuing
 * certificates on demand (Caddy `on_demand_tls { ask … }`): 200 when the host is the webDomain or
 * oidcDomain of an active custom domain, otherwise 404. No authentication, one indexed query,
 * and no environment in the path: custom domains of both environments are served by one edge.
 */
import { kysely } from "@/lib/db/client";
import { isTlsHostAllowed } from "@/lib/domains/routing";
import { ApiError } from "@/lib/errors";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { REST } from "@/lib/http/surfaces";

const headers = { "Cache-Control": "no-store" };

export const GET = pipeline(REST, async (request: Request): Promise<Response> => {
  const domain = new URL(request.url).searchParams.get("domain");
  if (!domain) {
    throw new ApiError("VALIDATION_ERROR", "domain: Required", {
      details: [{ path: "domain", message: "Required" }],
    });
  }
  const allowed = await isTlsHostAllowed(kysely(), domain);
  return Response.json({ allowed }, { status: allowed ? 200 : 404, headers });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(REST, { GET });
