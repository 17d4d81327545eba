import { getOwnedApp } from "@/lib/apps/service";
import { invalidField } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { listTestIdentities } from "@/lib/providers/adapters/simulator";
import { findProvider } from "@/lib/providers/catalog";
import * as endpoints from "@/lib/verifications/endpoints";

export const GET = withApi(endpoints.listAppTestIdentities, async ({ db, auth, params, query }) => {
  await getOwnedApp(db, auth, params.clientId);
  const provider = findProvider(query.providerId);
  if (!provider) throw invalidField("providerId", `unknown provider "${query.providerId}"`);
  return json(200, listTestIdentities(provider));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
