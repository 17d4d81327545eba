import { ApiError, invalidField } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { listTestIdentities as listTestIdentitiesEndpoint } from "@/lib/verifications/endpoints";
import { listTestIdentities } from "@/lib/providers/adapters/simulator";
import { findProvider } from "@/lib/providers/catalog";

export const GET = withApi(listTestIdentitiesEndpoint, async ({ query, env, url }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for GET ${url.pathname}`);
  const provider = findProvider(query.providerId);
  if (!provider) throw invalidField("providerId", `unknown provider "${query.providerId}"`);
  return json(200, listTestIdentities(provider));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
