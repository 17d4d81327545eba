/**
 * Rule: client_id names an app of this environment that is not deleted. Otherwise the error page:
 * without a known client there is no registered address to send the error to.
 */
import type { Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import { readClientApp, type TClientAppRow } from "../store/provider";
import { pageError } from "./authorization-error";
import { single, type TAuthorizationParams } from "./params";

/** The client of an authorization request: its app, with its providers. */
export type TClientApp = TClientAppRow;

export async function checkClient(
  db: Db,
  environment: TEnvironment,
  params: TAuthorizationParams,
): Promise<TClientApp> {
  const clientId = single(params, "client_id", false);
  if (clientId === undefined) throw pageError("client_id: is required");
  const app = clientId.length <= 64 ? await readClientApp(db, clientId) : undefined;
  if (!app || app.deletedAt || app.environment !== environment) {
    throw pageError(`client_id: no ${environment} client "${clientId.slice(0, 64)}"`);
  }
  return app;
}
