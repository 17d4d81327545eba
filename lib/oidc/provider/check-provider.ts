/**
 * Rules of the `provider` extension parameter: it names a catalog provider that is activated and
 * enabled for the app, discloses claims (match providers need matchData, which a browser sign-in
 * cannot carry) and can reach the requested minimum LoA; otherwise invalid_request. Without
 * it the end-user picks one of the same providers on the picker page.
 */
import { findProvider, type TProviderDefinition } from "../../providers/catalog";
import { AuthorizationError } from "./authorization-error";
import type { TClientApp } from "./check-client";
import { single, type TAuthorizationParams } from "./params";

/** The app's providers a session can run now, able to reach minLoa. */
export function selectableProviders(app: TClientApp, minLoa?: number): TProviderDefinition[] {
  return app.providers
    .filter((p) => p.enabled && p.status === "activated")
    .map((p) => findProvider(p.providerId))
    .filter((p): p is TProviderDefinition => p !== undefined && p.verificationModel === "disclosure")
    .filter((p) => minLoa === undefined || Math.max(...p.loa) >= minLoa);
}

export function checkProvider(
  app: TClientApp,
  params: TAuthorizationParams,
  minLoa?: number,
): TProviderDefinition | undefined {
  const id = single(params, "provider");
  if (id === undefined) return undefined;
  const provider = findProvider(id);
  const usable = app.providers.find((p) => p.providerId === id && p.enabled && p.status === "activated");
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
