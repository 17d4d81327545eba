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
