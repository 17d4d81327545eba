/**
 * Rule: client_id names an app of this environment that is not deleted. Otherwise the error page:
 * without a known client there is no registered address to send the error to.
 */
import type { Tx } from "../../db/client";
import type { App, AppProvider } from "../../db/generated/client";
import type { TEnvironment } from "../../environments";
import { pageError } from "./authorization-error";
import { single, type TAuthorizationParams } from "./params";

export type TClientApp = App & { providers: AppProvider[] };

export async function checkClient(
  db: Tx,
  environment: TEnvironment,
  params: TAuthorizationParams,
): Promise<TClientApp> {
  const clientId = single(params, "client_id", false);
  if (clientId === undefined) throw pageError("client_id: is required");
  const app =
    clientId.length <= 64
      ? await db.app.findUnique({ where: { id: clientId }, include: { providers: true } })
      : null;
  if (!app || app.deletedAt || app.environment !== environment) {
    throw pageError(`client_id: no ${environment} client "${clientId.slice(0, 64)}"`);
  }
  return app;
}
