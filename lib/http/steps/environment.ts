/**
 * withApi's environment: the `{env}` of the path (/api/{env}/v1/…), and the routes that exist in
 * the sandbox only (test helpers, `sandboxOnly` on the definition).
 */
import { parseEnvironment, type TEnvironment } from "../../environments";
import { ApiError } from "../../errors";
import type { EndpointDef } from "../endpoint";

/** The environment the path names; 404 ROUTE_NOT_FOUND for any other word. */
export function environmentOf(raw: string | undefined): TEnvironment {
  const env = parseEnvironment(raw);
  if (!env) throw new ApiError("ROUTE_NOT_FOUND", `No such environment "${raw}". Use sandbox or production`);
  return env;
}

/**
 * A sandbox test helper does not exist in production: 404 ROUTE_NOT_FOUND, as for a path no route
 * serves (answered after authentication and request parsing, before the handler runs).
 */
export function refuseOutsideSandbox(def: EndpointDef, env: TEnvironment, method: string, url: URL): void {
  if (def.sandboxOnly && env !== "sandbox") {
    throw new ApiError("ROUTE_NOT_FOUND", `No route for ${method} ${url.pathname}`);
  }
}
