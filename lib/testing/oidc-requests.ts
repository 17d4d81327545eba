/**
 * A relying party's side of the sandbox OpenID Provider in integration tests: an app registered for
 * a redirect URI, and authorization requests sent to /oidc/sandbox/auth.
 */
import { expect } from "vitest";
import { kysely } from "../db/client";
import { bearer, call } from "./router";
import { makeVerifyingApp } from "./verifications";

/** An app (makeVerifyingApp with `providers`) registered for `redirectUri`, with `settings` set alongside. */
export async function makeOidcApp(
  redirectUri: string,
  providers: string[],
  settings: Record<string, unknown> = {},
) {
  const t = await makeVerifyingApp(providers);
  const patched = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
    headers: bearer(t.ws.keys.sandbox),
    body: { redirectUris: [redirectUri], ...settings },
  });
  expect(patched.status).toBe(200);
  return t;
}

/** The authorization request's path with `params`, then `extra` on top (undefined removes one). */
export function authorizationPath(
  params: Record<string, string>,
  extra: Record<string, string | undefined> = {},
): string {
  const q = new URLSearchParams(params);
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) q.delete(k);
    else q.set(k, v);
  }
  return `/oidc/sandbox/auth?${q.toString()}`;
}

/**
 * An authorization request sent as a form POST; expects the 303 to the hosted page and returns the
 * session it started.
 */
export async function postAuthorization(params: Record<string, string>) {
  const res = await call("POST", "/oidc/sandbox/auth", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    rawBody: new URLSearchParams(params).toString(),
  });
  expect(res.status).toBe(303);
  const id = new URL(res.headers.get("location")!).pathname.split("/")[2]!;
  return kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}
