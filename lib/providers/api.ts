/** Endpoint definitions of the provider resources (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { APP_PROVIDER_STATUSES } from "./app-listing";

export const ZAppProvidersQuery = z.object({
  status: z
    .enum(APP_PROVIDER_STATUSES, { error: `must be one of: ${APP_PROVIDER_STATUSES.join(", ")}` })
    .optional(),
});

export const ZAppProviderEntryJson = z.object({
  id: z.string(),
  logoUrl: z.string(),
  name: z.string(),
  description: z.string(),
  countries: z.array(z.string()),
  status: z.enum(APP_PROVIDER_STATUSES),
});

export const listAppApiProviders = endpoint({
  method: "GET",
  path: "/v1/providers",
  operationId: "listProvidersForApp",
  summary: "List providers for the calling app (App API)",
  description: "Every catalog provider with the app's status; filter with `status`.",
  tag: "App API",
  auth: "app",
  query: ZAppProvidersQuery,
  responses: { 200: { description: "Provider list entries", schema: z.array(ZAppProviderEntryJson) } },
});
