/**
 * What activation writes of an app, on the data layer (lib/db/kysely.ts): its provider rows
 * (app_providers: added, their activation state set, a ticket's move mirrored), the app row's
 * lock and its remembered company information. The rules are the services' (submit.ts,
 * review.ts, tickets.ts).
 * Rules of its rows:
 * - json columns (a provider row's `config`, the app's `companyInfo`) are `unknown`, checked by
 *   their readers (lib/providers/requirements.ts), and written as JSON text;
 * - timestamps (`createdAt` of a new row, `updatedAt` of every change) are set here, from this
 *   process's clock;
 * - the app row is locked here (`lockApp`): an app's submissions and recorded contracts are
 *   serialized on it;
 * - the reads on every request (the provider rows, the app, the lock) are `prepared`.
 */
import { prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

// ---------------------------------------------------------------------------------------------
// Provider rows (app_providers)

const PROVIDER_STATUSES = prepared("activation_provider_statuses", (db, p: { appId: string }) =>
  db.selectFrom("appProviders").select(["providerId", "status"]).where("appId", "=", p.appId),
);

/** The app's provider rows: their provider ids and activation statuses. */
export async function readProviderStatuses(
  db: Db,
  appId: string,
): Promise<{ providerId: string; status: string }[]> {
  return PROVIDER_STATUSES.run(db, { appId });
}

const PROVIDER_STATUS = prepared(
  "activation_provider_status",
  (db, p: { appId: string; providerId: string }) =>
    db
      .selectFrom("appProviders")
      .select("status")
      .where("appId", "=", p.appId)
      .where("providerId", "=", p.providerId),
);

/** The row of `providerId` for the app (its status); undefined when the app has none. */
export async function readProviderStatus(
  db: Db,
  appId: string,
  providerId: string,
): Promise<{ status: string } | undefined> {
  const [row] = await PROVIDER_STATUS.run(db, { appId, providerId });
  return row;
}

/** The activation state of a provider row (what a submission or a recorded contract sets). */
export interface TProviderState {
  status: string;
  currentTicketId?: string;
  activatedAt?: Date;
  enabled?: boolean;
  /** the provider's configuration (the accepted requirement values; a JSON document) */
  config?: unknown;
}

function stateValues({ config, ...state }: Partial<TProviderState>) {
  return { ...state, config: config === undefined ? undefined : JSON.stringify(config) };
}

/** Adds `providerId` to the app: a row in `state`, the columns' defaults for what it leaves out. */
export async function insertProviderRow(
  db: Db,
  key: { appId: string; providerId: string },
  state: Partial<TProviderState>,
): Promise<void> {
  const now = new Date();
  await db
    .insertInto("appProviders")
    .values({
      ...stateValues(state),
      appId: key.appId,
      providerId: key.providerId,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

/** Sets the state of the app's row of `providerId`: whether there was one. */
export async function updateProviderRow(
  db: Db,
  key: { appId: string; providerId: string },
  state: TProviderState,
): Promise<boolean> {
  const result = await db
    .updateTable("appProviders")
    .set({ ...stateValues(state), updatedAt: new Date() })
    .where("appId", "=", key.appId)
    .where("providerId", "=", key.providerId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Mirrors a ticket's new state on its provider row, while the ticket is the row's current one. */
export async function mirrorTicketOnProvider(
  db: Db,
  ticket: { id: string; appId: string; providerId: string },
  state: TProviderState,
): Promise<void> {
  await db
    .updateTable("appProviders")
    .set({ ...stateValues(state), updatedAt: new Date() })
    .where("appId", "=", ticket.appId)
    .where("providerId", "=", ticket.providerId)
    .where("currentTicketId", "=", ticket.id)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The app row

const READ_APP = prepared("activation_read_app", (db, p: { appId: string }) =>
  db.selectFrom("apps").select(["id", "workspaceId", "environment", "deletedAt"]).where("id", "=", p.appId),
);

/** What a recorded contract needs of app `appId`, deleted or not; undefined when there is none. */
export async function readAppScope(
  db: Db,
  appId: string,
): Promise<
  { id: string; workspaceId: string; environment: TEnvironment; deletedAt: Date | null } | undefined
> {
  const [row] = await READ_APP.run(db, { appId });
  return row;
}

const LOCK_APP = prepared("activation_lock_app", (db, p: { appId: string }) =>
  db.selectFrom("apps").select("companyInfo").where("id", "=", p.appId).forUpdate(),
);

/**
 * Locks the app row for the rest of the transaction (an app's submissions and recorded contracts
 * are serialized on it) and reads its company information; undefined when there is no such app.
 */
export async function lockApp(db: Db, appId: string): Promise<{ companyInfo: unknown } | undefined> {
  const [row] = await LOCK_APP.run(db, { appId });
  return row;
}

const COMPANY_INFO = prepared("activation_company_info", (db, p: { appId: string }) =>
  db.selectFrom("apps").select("companyInfo").where("id", "=", p.appId),
);

/** The app's company information (unchecked JSON); undefined when there is no such app. */
export async function readCompanyInfo(db: Db, appId: string): Promise<{ companyInfo: unknown } | undefined> {
  const [row] = await COMPANY_INFO.run(db, { appId });
  return row;
}

/** Remembers the app's company information: whether the app row was there. */
export async function updateCompanyInfo(
  db: Db,
  appId: string,
  companyInfo: Record<string, unknown>,
): Promise<boolean> {
  const result = await db
    .updateTable("apps")
    .set({ companyInfo: JSON.stringify(companyInfo), updatedAt: new Date() })
    .where("id", "=", appId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
