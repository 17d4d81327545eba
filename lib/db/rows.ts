/**
 * Row types of the tables the services pass around whole, as the data layer reads them
 * (generated from prisma/schema.prisma: lib/db/generated/kysely). A store's own narrower rows
 * are declared in the store.
 */
import type { Selectable } from "kysely";
import type { DB } from "./generated/kysely/types";

/** A row of `table` as a select of all its columns gives it. */
export type TRow<T extends keyof DB> = Selectable<DB[T]>;

export type App = TRow<"apps">;
export type AppProvider = TRow<"appProviders">;
export type ProductionTestChallenge = TRow<"productionTestChallenges">;
export type ProductionTestRequest = TRow<"productionTestRequests">;
export type ProviderConnection = TRow<"providerConnections">;
export type Verification = TRow<"verifications">;
export type Workflow = TRow<"workflows">;

/**
 * The apps columns of an OpenID Provider client's settings (lib/oidc/profile.ts
 * `TClientOidcSettings`): every statement that reads a client for the OP selects these.
 */
export const CLIENT_SETTINGS_COLUMNS = [
  "tokenEndpointAuthMethod",
  "jwks",
  "jwksUri",
  "requirePushedAuthorizationRequests",
  "requireDpop",
  "oidcProfile",
  "pkceRequired",
] as const satisfies readonly (keyof App)[];
