/**
 * Rules of the `provider` extension parameter: it names a catalog provider that is activated and
 * enabled for the app, discloses claims (match providers need matchData, which a browser sign-in
 * cannot carry), can reach the requested minimum LoA and can run in the environment (production:
 * a working, enabled connection, lib/connections/runtime.ts); otherwise invalid_request. Without
 * it the end-user picks one of the same providers on the picker page, which never lists a
 * provider nothing can answer.
 */
import { findProvider, type TProviderDefinition } from "../../providers/catalog";
import { AuthorizationError } from "./authorization-error";
import type { TClientApp } from "./check-client";
import { single, type TAuthorizationParams } from "./params";

/** Provider ids whose sessions can start in the app's environment (connectionAvailability). */
export type TAvailableProviders = ReadonlySet<string>;

/** The app's providers a session can run now, able to reach minLoa. */
export function selectableProviders(
  app: TClientApp,
  available: TAvailableProviders,
  minLoa?: number,
): TProviderDefinition[] {
  return app.providers
    .filter((p) => p.enabled && p.status === "activated" && available.has(p.providerId))
    .map((p) => findProvider(p.providerId))
    .filter((p): p is TProviderDefinition => p !== undefined && p.verificationModel === "disclosure")
    .filter((p) => minLoa === undefined || Math.max(...p.loa) >= minLoa);
}

export function checkProvider(
  app: TClientApp,
  params: TAuthorizationParams,
  available: TAvailableProviders,
  minLoa?: number,
): TProviderDefinition | undefined {
  const id = single(params, "provider");
  if (id === undefined) return undefined;
  const provider = findProvider(id);
  const usable = app.providers.find(
    (p) => p.providerId === id && p.enabled && p.status === "activated" && available.has(id),
  );
  if (!provider || !usable || provider.verificationModel !== "disclosure") {
    throw new AuthorizationError(
      "invalid_request",
      `provider: "${id.slice(0, 64)}" is not available for this client`,
    );
  }
  if (minLoa !== undefined && Math.max(...provider.loa) < minLoa) {
    throw new AuthorizationError(
      "invalid_request",
      `provider: "${id}" cannot reach the level of assurance requested by acr_values`,
    );
  }
  return provider;
}
