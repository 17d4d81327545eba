/**
 * The connection adapters (issue 24 §3): the one list of production adapters a connection can
 * bind a catalog provider to. Adding a protocol is one module implementing
 * TConnectionAdapterModule (./types.ts) and one line here (docs/architecture.md "Provider
 * adapters"); the Operator API, the settings checks, the back-office test sign-in and the
 * sessions' sign-in driver read this list.
 */
import { oidcConnectionAdapter } from "./oidc";
import { samlConnectionAdapter } from "./saml";
import type { TConnectionAdapterModule } from "./types";
import { walletConnectionAdapter } from "./wallet";

export const CONNECTION_ADAPTER_MODULES = {
  oidc: oidcConnectionAdapter,
  saml: samlConnectionAdapter,
  wallet: walletConnectionAdapter,
} as const;

export type TConnectionAdapter = keyof typeof CONNECTION_ADAPTER_MODULES;

/** The adapters' ids, in registry order (the API's enum). */
export const CONNECTION_ADAPTERS = Object.keys(CONNECTION_ADAPTER_MODULES) as [
  TConnectionAdapter,
  ...TConnectionAdapter[],
];

/** What each adapter's runtime receives: its configuration (stored settings and secrets together). */
export type TAdapterSettings = {
  [A in TConnectionAdapter]: (typeof CONNECTION_ADAPTER_MODULES)[A] extends TConnectionAdapterModule<
    A,
    infer S,
    infer _State
  >
    ? S
    : never;
};

/** The module of a stored adapter name; undefined outside the list. */
export function adapterModuleOf(adapter: string): TConnectionAdapterModule | undefined {
  return Object.hasOwn(CONNECTION_ADAPTER_MODULES, adapter)
    ? (CONNECTION_ADAPTER_MODULES[adapter as TConnectionAdapter] as TConnectionAdapterModule)
    : undefined;
}
