/**
 * GET /api/tls/allowed?domain=<host> — the `ask` endpoint of a TLS-terminating proxy issuing
 * certificates on demand (Caddy `on_demand_tls { ask … }`): 200 when the host is the webDomain or
 * oidcDomain of an active custom domain, otherwise 404. No authentication, one indexed query,
 * and no environment in the path: custom domains of both environments are served by one edge.
 */
import { getDb } from "@/lib/db/client";
import { isTlsHostAllowed } from "@/lib/domains/routing";
import { ApiError, errorBody } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/log";

const headers = { "Cache-Control": "no-store" };

export async function GET(request: Request): Promise<Response> {
  const requestId = newId("req");
  const domain = new URL(request.url).searchParams.get("domain");
  if (!domain) {
    const error = new ApiError("VALIDATION_ERROR", "domain: Required", {
      details: [{ path: "domain", message: "Required" }],
    });
    return Response.json(errorBody(error, requestId), { status: 400, headers });
  }
  try {
    const allowed = await isTlsHostAllowed(getDb(), domain);
    return Response.json({ allowed }, { status: allowed ? 200 : 404, headers });
  } catch (err) {
    logger.error({ err, requestId, domain }, "TLS ask check failed");
    const error = new ApiError(
      "INTERNAL_ERROR",
      "Internal server error. Quote the requestId when contacting support",
    );
    return Response.json(errorBody(error, requestId), { status: 500, headers });
  }
}
