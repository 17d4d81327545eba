/**
 * An app's credential (apps) on the data layer (lib/db/kysely.ts), alone or with the row a route
 * reads beside it (lib/auth/app-credentials.ts). Every read here runs on every App API request:
 * prepared (named) statements, one per request.
 */
import type { AliasableExpression, SelectType } from "kysely";
import { prepared, type Db } from "../../db/kysely";
import { CLIENT_SETTINGS_COLUMNS } from "../../db/rows";

const CREDENTIAL_COLUMNS = ["id", "workspaceId", "environment", "clientSecretHash", "deletedAt"] as const;

const APP_CREDENTIAL = prepared("auth_app_credential", (db, p: { clientId: string }) =>
  db.selectFrom("apps").select(CREDENTIAL_COLUMNS).where("id", "=", p.clientId),
);

/** The app's credential by client id (undefined: no such app). */
export async function readAppCredential(db: Db, clientId: string) {
  const [row] = await APP_CREDENTIAL.run(db, { clientId });
  return row;
}

/** An app's credential row. */
export type TAppCredential = NonNullable<Awaited<ReturnType<typeof readAppCredential>>>;

const CLIENT_CREDENTIAL = prepared("auth_client_credential", (db, p: { clientId: string }) =>
  db
    .selectFrom("apps")
    .select(CREDENTIAL_COLUMNS)
    .select(CLIENT_SETTINGS_COLUMNS)
    .where("id", "=", p.clientId),
);

/** The app's credential with its OpenID client settings (undefined: no such app). */
export async function readClientCredential(db: Db, clientId: string) {
  const [row] = await CLIENT_CREDENTIAL.run(db, { clientId });
  return row;
}

/** An app's credential row with its OpenID client settings. */
export type TClientCredential = NonNullable<Awaited<ReturnType<typeof readClientCredential>>>;

/**
 * A value JSON carries as it is (a row read with the credential travels as JSON): no Date (a
 * timestamp is selected as epoch milliseconds, lib/db/timestamps.ts), and objects only of such
 * values.
 */
export type TJsonSafe =
  string | number | boolean | null | readonly TJsonSafe[] | { readonly [key: string]: TJsonSafe };

/** A row of `O` as a statement returns it (Kysely's type of a selected value). */
export type TJsonRow<O> = SelectType<O>;

/**
 * The statement `name`: the credential of a client id and, as a subquery of the app's row, the
 * row `row` reads by `id` (at most one: its primary key) as one JSON object (`jsonBuildObject`,
 * whose keys are the row's names as written: the data layer maps only a result row's own
 * columns); null when there is none, and the credential is still read. The row's query must not
 * name the client id (a condition on it would let the planner pick the owner's index and scan
 * all of a large app's rows for one key).
 */
export function credentialWithRow<O extends Record<keyof O, TJsonSafe>>(
  name: string,
  row: (db: Db, id: string) => AliasableExpression<O | null>,
) {
  const statement = prepared(name, (db, p: { clientId: string; id: string }) =>
    db
      .selectFrom("apps")
      .select(CREDENTIAL_COLUMNS)
      .select(row(db, p.id).as("row"))
      .where("id", "=", p.clientId),
  );
  /** The credential (null: no such app) and the row (null: none). */
  return splitRow(statement);
}

/** credentialWithRow reading the OpenID client settings with the credential (statement `name`). */
export function clientCredentialWithRow<O extends Record<keyof O, TJsonSafe>>(
  name: string,
  row: (db: Db, id: string) => AliasableExpression<O | null>,
) {
  const statement = prepared(name, (db, p: { clientId: string; id: string }) =>
    db
      .selectFrom("apps")
      .select(CREDENTIAL_COLUMNS)
      .select(CLIENT_SETTINGS_COLUMNS)
      .select(row(db, p.id).as("row"))
      .where("id", "=", p.clientId),
  );
  /** The credential with the settings (null: no such app) and the row (null: none). */
  return splitRow(statement);
}

/** A credential statement's reader: the credential's columns apart from the row read with them. */
function splitRow<C extends { row: unknown }>(statement: {
  run(db: Db, p: { clientId: string; id: string }): Promise<C[]>;
}) {
  return async (db: Db, clientId: string, id: string) => {
    const [found] = await statement.run(db, { clientId, id });
    if (!found) return { credential: null, row: null };
    const { row: json, ...credential } = found;
    return { credential, row: json as C["row"] };
  };
}
