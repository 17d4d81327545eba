import { invalidField } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { listTestIdentities } from "@/lib/providers/adapters/simulator";
import { findProvider } from "@/lib/providers/catalog";

export const GET = withApi(endpoints.listTestIdentities, async ({ query }) => {
  const provider = findProvider(query.providerId);
  if (!provider) throw invalidField("providerId", `unknown provider "${query.providerId}"`);
  return json(200, listTestIdentities(provider));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
