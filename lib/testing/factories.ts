/** Test data built through the same domain code the product uses. */
import { kysely } from "../db/client";
import { randomToken } from "../ids";
import { createWorkspace } from "../workspaces";
import { call, bearer } from "./router";
import { inTransaction } from "../db/kysely";

export async function makeWorkspace(name = "Test workspace") {
  const email = `owner-${randomToken(10).toLowerCase()}@example.test`;
  const created = await createWorkspace(kysely(), { name, email, password: "correct horse battery staple" });
  return { ...created, email };
}

export async function makeApp(key: string, env: "sandbox" | "production" = "sandbox", name = "Test app") {
  const res = await call("POST", `/api/${env}/v1/apps`, { headers: bearer(key), body: { name } });
  if (res.status !== 201) throw new Error(`creating an app failed: ${res.status} ${res.text}`);
  return res.body as {
    clientId: string;
    clientSecret: string;
    defaultWorkflowId: string;
    [k: string]: unknown;
  };
}

export async function makeOperator() {
  const { createOperator } = await import("../operators");
  const email = `operator-${randomToken(10).toLowerCase()}@example.test`;
  return inTransaction(kysely(), (tx) => createOperator(tx, { email, password: "operator password 1" }));
}

/**
 * A console session for `userId`, as the browser would send it: the Cookie header, plus the
 * same-origin Origin header that writes need (pass `{ origin: null }` to leave it out). Its JWT
 * has the claims of a sign-in just now (`signedInAt`, a fresh `sid`); `claims` adds or replaces.
 */
export async function sessionHeaders(
  userId: string,
  options: { workspaceId?: string; origin?: string | null; claims?: Record<string, unknown> } = {},
): Promise<Record<string, string>> {
  const { encode } = await import("next-auth/jwt");
  const { sessionCookieName, sessionSecret } = await import("../auth/console/credential");
  const { signInClaims } = await import("../auth/console/claims");
  const { publicUrl } = await import("../config");
  const token = await encode({
    token: { sub: userId, ...signInClaims({}), ...options.claims },
    secret: sessionSecret(),
  });
  const headers: Record<string, string> = { cookie: `${sessionCookieName()}=${token}` };
  const origin = options.origin === undefined ? new URL(publicUrl()).origin : options.origin;
  if (origin) headers.origin = origin;
  if (options.workspaceId) headers["x-workspace-id"] = options.workspaceId;
  return headers;
}

/**
 * An operator's back-office session (the claims next-auth gives an operator at sign-in);
 * `expiresInSeconds` ≤ 0 makes an ended one.
 */
export async function operatorSessionHeaders(
  userId: string,
  options: { origin?: string | null; expiresInSeconds?: number } = {},
): Promise<Record<string, string>> {
  const { OPERATOR_EXPIRY_CLAIM, signInClaims } = await import("../auth/console/claims");
  const claims =
    options.expiresInSeconds === undefined
      ? signInClaims({ isOperator: true })
      : { [OPERATOR_EXPIRY_CLAIM]: Math.floor(Date.now() / 1000) + options.expiresInSeconds };
  return sessionHeaders(userId, { origin: options.origin, claims });
}

/** Adds a member with `role` to a workspace (a new user), through the domain tables. */
export async function addMember(workspaceId: string, role: "owner" | "admin" | "developer" | "viewer") {
  const { hashPassword } = await import("../crypto/password");
  const { newId } = await import("../ids");
  const db = kysely();
  const email = `${role}-${randomToken(10).toLowerCase()}@example.test`;
  const userId = newId("usr");
  const passwordHash = await hashPassword("member password 1");
  await db.insertInto("users").values({ id: userId, email, passwordHash, updatedAt: new Date() }).execute();
  await db.insertInto("memberships").values({ workspaceId, userId, role }).execute();
  return { userId, email };
}
