import { getOwnedApp } from "@/lib/apps/service";
import { ApiError, invalidField } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { listTestIdentities } from "@/lib/providers/adapters/simulator";
import { findProvider } from "@/lib/providers/catalog";
import { listAppTestIdentities as endpoint } from "@/lib/verifications/endpoints";

// sandbox only, like the other test helpers: in production the route does not exist
export const GET = withApi(endpoint, async ({ db, auth, params, query, env, url }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for GET ${url.pathname}`);
  await getOwnedApp(db, auth, params.clientId!);
  const provider = findProvider(query.providerId);
  if (!provider) throw invalidField("providerId", `unknown provider "${query.providerId}"`);
  return json(200, listTestIdentities(provider));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
