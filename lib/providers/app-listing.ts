/**
 * The App API provider listing (GET /v1/providers): every catalog provider with the calling
 * app's status — `action_required` (activated, but its stored configuration fails the
 * provider's current requirements: the Workspace API's needAction), `activated` (activated and
 * enabled), `deactivated` (everything else: not activated, under review, rejected, disabled);
 * and `available`: whether a session can start (production: a working, enabled connection,
 * lib/connections/runtime.ts; sandbox: always), with the reason when not.
 */
import type { z } from "zod";
import type { AppAuth } from "../auth/app-credentials";
import { availabilityFields, connectionAvailabilities } from "../connections/runtime";
import type { Db } from "../db/client";
import { providerNeedsAction } from "./app-providers";
import { PROVIDERS } from "./catalog";
import type { ZAppProviderEntryJson } from "./endpoints";
import type { TAppProviderStatus } from "./schema";
import { readAppProviderRows } from "./store";

export type TAppProviderEntry = z.infer<typeof ZAppProviderEntryJson>;

export async function listProvidersForApp(
  db: Db,
  auth: AppAuth,
  status?: TAppProviderStatus,
): Promise<TAppProviderEntry[]> {
  const rows = await readAppProviderRows(db, auth.clientId);
  const byId = new Map(rows.map((r) => [r.providerId, r]));
  const availability = await connectionAvailabilities(
    auth.environment,
    PROVIDERS.map((p) => p.id),
    db,
  );
  const entries = PROVIDERS.map((p): TAppProviderEntry => {
    const row = byId.get(p.id);
    const state: TAppProviderStatus = providerNeedsAction(p, row)
      ? "action_required"
      : row?.status === "activated" && row.enabled
        ? "activated"
        : "deactivated";
    return {
      id: p.id,
      logoUrl: p.logoUrl,
      name: p.name,
      description: p.description,
      countries: p.countries,
      status: state,
      ...availabilityFields(availability.get(p.id)!),
    };
  });
  return status ? entries.filter((e) => e.status === status) : entries;
}
