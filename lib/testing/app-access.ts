/**
 * The refusals an endpoint under /api/{env}/v1/apps/{clientId}/… owes every caller that may not act
 * on the app, checked the same way for each such endpoint.
 */
import { expect } from "vitest";
import { basic, bearer, call, type CallResult } from "./router";

const UNKNOWN_CLIENT_ID = "app_01HZZZZZZZZZZZZZZZZZZZZZZZ";

export interface TAppAccessCase {
  method: string;
  /** the endpoint's sandbox path on `app` */
  path: string;
  body?: unknown;
  app: { clientId: string; clientSecret: string };
  /** the app's workspace */
  ws: { keys: { sandbox: string; production: string } };
  /** a workspace the app is not in */
  other: { keys: { sandbox: string } };
}

/**
 * The first refusals: no key, 401 INVALID_API_KEY; the app's own client credentials, 401; another
 * workspace's key, 403 RESOURCE_FORBIDDEN. Returns the 403 answer, for checks on what it gives away.
 */
export async function expectWorkspaceKeyRequired({
  method,
  path,
  body,
  app,
  other,
}: Omit<TAppAccessCase, "ws">): Promise<{ forbidden: CallResult }> {
  const none = await call(method, path, { body });
  expect(none.status).toBe(401);
  expect(none.body.error.code).toBe("INVALID_API_KEY");
  const basicAuth = await call(method, path, { headers: basic(app.clientId, app.clientSecret), body });
  expect(basicAuth.status).toBe(401);
  const forbidden = await call(method, path, { headers: bearer(other.keys.sandbox), body });
  expect(forbidden.status).toBe(403);
  expect(forbidden.body.error.code).toBe("RESOURCE_FORBIDDEN");
  return { forbidden };
}

/**
 * expectWorkspaceKeyRequired, then: the production API with the workspace's production key (it
 * does not know sandbox apps), 404 RESOURCE_NOT_FOUND; an unknown app, 404.
 */
export async function expectAppAccessRefused(access: TAppAccessCase): Promise<{ forbidden: CallResult }> {
  const { method, path, body, app, ws } = access;
  const { forbidden } = await expectWorkspaceKeyRequired(access);
  const crossEnv = await call(method, path.replace("/api/sandbox/", "/api/production/"), {
    headers: bearer(ws.keys.production),
    body,
  });
  expect(crossEnv.status).toBe(404);
  expect(crossEnv.body.error.code).toBe("RESOURCE_NOT_FOUND");
  const unknown = await call(method, path.replace(`/apps/${app.clientId}/`, `/apps/${UNKNOWN_CLIENT_ID}/`), {
    headers: bearer(ws.keys.sandbox),
    body,
  });
  expect(unknown.status).toBe(404);
  return { forbidden };
}
