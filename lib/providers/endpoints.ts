/** Endpoint definitions of the provider resources (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { UNAVAILABLE_REASONS } from "../connections/schema";
import {
  APP_PROVIDER_STATUSES,
  ZListAppProvidersQuery,
  ZProviderJson,
  ZProviderWithActivationJson,
  ZUpdateAppProvider,
} from "./schema";

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
  available: z
    .boolean()
    .describe(
      "Whether sessions of this provider can start in this environment: always in the sandbox (simulator); in production only while the provider has a working, enabled connection (operator-managed). An unavailable provider can still be activated; POST /v1/verifications refuses it with 400 PROVIDER_NOT_AVAILABLE.",
    ),
  unavailableReason: z
    .enum(UNAVAILABLE_REASONS)
    .nullable()
    .describe(
      "Why `available` is false: `not_connected` (no connection in this deployment), `disabled` (its connection is switched off) or `failing` (its connection's last check failed); null when available",
    ),
});

export const listAppApiProviders = endpoint({
  method: "GET",
  path: "/v1/providers",
  operationId: "listProvidersForApp",
  summary: "List providers for the calling app (App API)",
  description:
    "Every catalog provider with the calling app's status: `activated` (activated and enabled), `action_required` (activated, but its stored configuration fails the provider's current requirements) or `deactivated` (anything else). Filter with `status`; other values are 400. `available` says whether a session can start: in production a provider without a working, enabled connection is listed with `available: false` and an `unavailableReason`, and cannot be used in POST /v1/verifications (400 PROVIDER_NOT_AVAILABLE).",
  tag: "App API",
  auth: "app",
  query: ZAppProvidersQuery,
  responses: { 200: { description: "Provider list entries", schema: z.array(ZAppProviderEntryJson) } },
});

export const listAppProviders = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/providers",
  operationId: "listAppProviders",
  summary: "List an app's providers",
  description:
    "A plain array of catalog entries with the app's state: `isActive` (status activated) and `needAction` (activated, but the stored configuration fails the provider's current requirements). Production lists the whole catalog; the sandbox lists only providers added to the app (the starter `passport`, and any provider an activation was submitted for) unless `scope=catalog` asks for every catalog provider with the app's status (`not_activated` for those never added), which is how to discover what the sandbox can activate. With `include=activation` (repeatable or comma-separated; unknown values are ignored) each entry also has `status` and `activation`: the ticket id and timestamps, and the requirements to submit, prefilled (`currentValue`) from the company information the app submitted before, with the latest submitted values (`submittedValue`).",
  tag: "Providers",
  auth: "workspace",
  query: ZListAppProvidersQuery,
  responses: { 200: { description: "The app's provider entries", schema: z.array(ZProviderJson) } },
});

export const updateAppProvider = endpoint({
  method: "PATCH",
  path: "/v1/apps/{client_id}/providers/{provider_id}",
  operationId: "updateAppProvider",
  summary: "Enable or disable a provider for an app",
  description:
    "Switches an activated provider on or off for the app: reflected in the App's `providers[id].enabled` and in the App API listing (`activated` vs `deactivated`). A provider that is not activated for the app is `400 PROVIDER_NOT_AVAILABLE`; a provider id outside the catalog is 404. Returns the entry with its activation.",
  tag: "Providers",
  auth: "workspace",
  body: ZUpdateAppProvider,
  responses: {
    200: {
      description: "The provider entry, with status and activation",
      schema: ZProviderWithActivationJson,
    },
  },
});
