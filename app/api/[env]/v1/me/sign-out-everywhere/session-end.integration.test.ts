/**
 * Console sessions that really end (issue 23 items 2 and 3): after a password change, a
 * sign-out, "sign out of all sessions", the absolute lifetime or the removal from the last
 * workspace, the old cookie is refused by the REST API and next-auth's own renewal
 * (`GET /api/auth/session`, the real route handler) answers an empty session and clears it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { decode } from "next-auth/jwt";
import { sessionCookieName, sessionSecret } from "@/lib/auth/console/credential";
import { kysely } from "@/lib/db/client";
import {
  addMember,
  makeOperator,
  makeWorkspace,
  operatorSessionHeaders,
  sessionHeaders,
} from "@/lib/testing/factories";
import { bearer, call, dispatch } from "@/lib/testing/router";

function userRow(id: string) {
  return kysely().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

function revokedSession(sid: string) {
  return kysely().selectFrom("revokedSessions").selectAll().where("sid", "=", sid).executeTakeFirst();
}

// next-auth's App Router handler reads cookies and headers through next/headers, which needs the
// request scope a Next.js server sets up: the route handler runs inside the same two stores here
// (Next.js makes them from the global AsyncLocalStorage its server installs), so the test holds
// whichever way the route calls next-auth
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
const nodeRequire = createRequire(import.meta.url);
const { workAsyncStorage } = nodeRequire("next/dist/server/app-render/work-async-storage.external") as {
  workAsyncStorage: { run<T>(store: unknown, fn: () => T): T };
};
const { workUnitAsyncStorage } = nodeRequire(
  "next/dist/server/app-render/work-unit-async-storage.external",
) as {
  workUnitAsyncStorage: { run<T>(store: unknown, fn: () => T): T };
};
const { createRequestStoreForAPI } = nodeRequire("next/dist/server/async-storage/request-store") as {
  createRequestStoreForAPI: (req: { headers: Headers }, url: URL, ...rest: unknown[]) => unknown;
};
const { NextRequest } = nodeRequire("next/server") as typeof import("next/server");

interface NextAuthAnswer {
  status: number;
  body: unknown;
  /** the session cookie the answer sets: its value, "" when it clears it, undefined when untouched */
  sessionCookie: string | undefined;
  cookies: string[];
}

/** One request to next-auth's real route handler (app/api/auth/[...nextauth]/route.ts). */
async function nextAuth(
  method: "GET" | "POST",
  path: string,
  options: { cookie?: string; form?: Record<string, string> } = {},
): Promise<NextAuthAnswer> {
  const url = new URL(path, "http://localhost:3000");
  const headers = new Headers({ origin: url.origin });
  if (options.cookie) headers.set("cookie", options.cookie);
  let body: string | undefined;
  if (options.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(options.form).toString();
  }
  const request = new NextRequest(url, { method, headers, body });
  const workStore = { route: "/api/auth/[...nextauth]", forceStatic: false, dynamicShouldError: false };
  const requestStore = createRequestStoreForAPI(request, url, undefined, () => undefined, undefined);
  const response = await workAsyncStorage.run(workStore, () =>
    workUnitAsyncStorage.run(requestStore, () => dispatch(request)),
  );
  const cookies = response.headers.getSetCookie();
  let sessionCookie: string | undefined;
  for (const line of cookies) {
    const [pair = ""] = line.split(";");
    const eq = pair.indexOf("=");
    if (pair.slice(0, eq) !== sessionCookieName()) continue;
    const cleared = /max-age=0(;|$)/i.test(line) || /expires=thu, 01 jan 1970/i.test(line);
    sessionCookie = cleared ? "" : pair.slice(eq + 1);
  }
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, sessionCookie, cookies };
}

const cookieOf = (headers: Record<string, string>) => headers.cookie!;

/** `GET /api/auth/session` with the cookie of `headers`: next-auth's renewal. */
function renew(headers: Record<string, string>) {
  return nextAuth("GET", "/api/auth/session", { cookie: cookieOf(headers) });
}

/** Expects renewal refused: an empty session and the cookie cleared. */
async function expectNotRenewed(headers: Record<string, string>) {
  const answer = await renew(headers);
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({});
  expect(answer.sessionCookie).toBe("");
}

/** The same headers with the cookie next-auth's renewal answered. */
async function renewed(headers: Record<string, string>): Promise<Record<string, string>> {
  const answer = await renew(headers);
  expect(answer.body).toMatchObject({ user: { id: expect.any(String) } });
  expect(answer.sessionCookie).toBeTruthy();
  return { ...headers, cookie: `${sessionCookieName()}=${answer.sessionCookie}` };
}

async function me(headers: Record<string, string>) {
  return call("GET", "/api/sandbox/v1/me", { headers });
}

async function waitPast(date: Date) {
  await new Promise((r) => setTimeout(r, Math.max(0, date.getTime() - Date.now() + 20)));
}

describe("session renewal (GET /api/auth/session)", () => {
  it("renews a live session without moving its sign-in time or id", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const next = await renewed(headers);
    const before = await decode({ token: cookieOf(headers).split("=")[1]!, secret: sessionSecret() });
    const after = await decode({ token: next.cookie!.split("=")[1]!, secret: sessionSecret() });
    expect(after).toMatchObject({ sub: ws.userId, signedInAt: before!.signedInAt, sid: before!.sid });
    expect((await me(next)).status).toBe(200);
  });

  it("refuses a session issued before sign-in claims existed, and one past its absolute lifetime", async () => {
    const ws = await makeWorkspace();
    const legacy = await sessionHeaders(ws.userId, { claims: { signedInAt: undefined, sid: undefined } });
    expect((await me(legacy)).status).toBe(401);
    await expectNotRenewed(legacy);
    // signed in 7 days and a minute ago: the JWT itself (exp) is fresh, the session is not
    const old = await sessionHeaders(ws.userId, {
      claims: { signedInAt: Math.floor(Date.now() / 1000) - 7 * 24 * 3600 - 60 },
    });
    const refused = await me(old);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("INVALID_SESSION");
    await expectNotRenewed(old);
    // a day younger is fine
    const young = await sessionHeaders(ws.userId, {
      claims: { signedInAt: Math.floor(Date.now() / 1000) - 6 * 24 * 3600 },
    });
    expect((await me(await renewed(young))).status).toBe(200);
  });
});

describe("a password change ends every session for good", () => {
  it("the old cookie is neither renewed nor accepted, before or after renewal", async () => {
    const ws = await makeWorkspace();
    const stolen = await sessionHeaders(ws.userId);
    const stolenRenewed = await renewed(stolen);
    const changed = await call("POST", "/api/sandbox/v1/me/password", {
      headers: await sessionHeaders(ws.userId),
      body: { currentPassword: "correct horse battery staple", newPassword: "a brand new secret" },
    });
    expect(changed.status).toBe(200);
    const user = await userRow(ws.userId);
    // renewal after the change would give the cookie a new issue time past sessionsValidFrom
    await waitPast(user.sessionsValidFrom!);
    for (const headers of [stolen, stolenRenewed]) {
      await expectNotRenewed(headers);
      expect((await me(headers)).status).toBe(401);
      const reveal = await call("GET", "/api/sandbox/v1/verifications?limit=1&offset=0", { headers });
      expect(reveal.status).toBe(401);
    }
  });
});

describe("sign-out (POST /api/auth/signout)", () => {
  it("ends this session on the server, not just its cookie; the user's other sessions go on", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const otherDevice = await sessionHeaders(ws.userId);
    // a revocation whose session has reached its absolute end: the next sign-out deletes it
    const stale = `stale${Date.now()}`;
    await kysely()
      .insertInto("revokedSessions")
      .values({ sid: stale, userId: ws.userId, expiresAt: new Date(Date.now() - 1000) })
      .execute();
    const csrf = await nextAuth("GET", "/api/auth/csrf");
    const csrfCookie = csrf.cookies.map((c) => c.split(";")[0]).join("; ");
    const out = await nextAuth("POST", "/api/auth/signout", {
      cookie: `${cookieOf(headers)}; ${csrfCookie}`,
      form: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken, json: "true" },
    });
    expect(out.status).toBe(200);
    expect(out.sessionCookie).toBe("");
    const { sid, signedInAt } = (await decode({
      token: cookieOf(headers).split("=")[1]!,
      secret: sessionSecret(),
    }))!;
    const revoked = await revokedSession(sid as string);
    // kept until the session's absolute end (7 days after its sign-in), no longer
    expect(revoked).toMatchObject({
      userId: ws.userId,
      expiresAt: new Date(((signedInAt as number) + 7 * 24 * 3600) * 1000),
    });
    expect(await revokedSession(stale)).toBeUndefined();
    // the copy of the cookie someone kept is dead
    const refused = await me(headers);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("INVALID_SESSION");
    await expectNotRenewed(headers);
    expect((await me(otherDevice)).status).toBe(200);
    expect((await me(await renewed(otherDevice))).status).toBe(200);
  });
});

describe("sign out of all sessions", () => {
  it("POST /v1/me/sign-out-everywhere ends every session of the user, audited", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const otherDevice = await renewed(await sessionHeaders(ws.userId));
    const res = await call("POST", "/api/production/v1/me/sign-out-everywhere", { headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signedOut: true });
    const user = await userRow(ws.userId);
    await waitPast(user.sessionsValidFrom!);
    for (const h of [headers, otherDevice]) {
      expect((await me(h)).status).toBe(401);
      await expectNotRenewed(h);
    }
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .where("action", "=", "user.signed_out_everywhere")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: "user", actorId: ws.userId, targetId: ws.userId });
    // a session signed in afterwards works
    expect((await me(await sessionHeaders(ws.userId))).status).toBe(200);
  });

  it("is for sessions only: an API key gets 403, a write from another origin 403", async () => {
    const ws = await makeWorkspace();
    const key = await call("POST", "/api/sandbox/v1/me/sign-out-everywhere", {
      headers: bearer(ws.keys.sandbox),
    });
    expect(key.status).toBe(403);
    expect(key.body.error.code).toBe("RESOURCE_FORBIDDEN");
    const foreign = await call("POST", "/api/sandbox/v1/me/sign-out-everywhere", {
      headers: await sessionHeaders(ws.userId, { origin: "https://evil.example" }),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    expect((await userRow(ws.userId)).sessionsValidFrom).toBeNull();
  });

  it("POST /v1/operator/me/sign-out-everywhere ends an operator's sessions (no workspace needed); an operator key gets 403", async () => {
    const operator = await makeOperator();
    const headers = await operatorSessionHeaders(operator.userId);
    const otherDevice = await renewed(await operatorSessionHeaders(operator.userId));
    const byKey = await call("POST", "/api/sandbox/v1/operator/me/sign-out-everywhere", {
      headers: bearer(operator.operatorKey),
    });
    expect(byKey.status).toBe(403);
    const res = await call("POST", "/api/sandbox/v1/operator/me/sign-out-everywhere", { headers });
    expect(res.status).toBe(200);
    const user = await userRow(operator.userId);
    await waitPast(user.sessionsValidFrom!);
    for (const h of [headers, otherDevice]) {
      const list = await call("GET", "/api/sandbox/v1/operator/activations?limit=1&offset=0", { headers: h });
      expect(list.status).toBe(401);
      await expectNotRenewed(h);
    }
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("actorId", "=", operator.userId)
      .where("action", "=", "user.signed_out_everywhere")
      .execute();
    expect(audit).toMatchObject([{ actorType: "operator", targetId: operator.userId }]);
  });
});

describe("removal from the workspace", () => {
  it("refuses the removed member's session for that workspace, and renewal once no workspace is left", async () => {
    const ws = await makeWorkspace();
    const other = await makeWorkspace();
    const member = await addMember(ws.workspaceId, "developer");
    const alone = await addMember(ws.workspaceId, "viewer");
    await kysely()
      .insertInto("memberships")
      .values({ workspaceId: other.workspaceId, userId: member.userId, role: "viewer" })
      .execute();
    const memberSession = await sessionHeaders(member.userId, { workspaceId: ws.workspaceId });
    const aloneSession = await sessionHeaders(alone.userId, { workspaceId: ws.workspaceId });
    for (const userId of [member.userId, alone.userId]) {
      const removed = await call("DELETE", `/api/sandbox/v1/team/members/${userId}`, {
        headers: bearer(ws.keys.sandbox),
      });
      expect(removed.status).toBe(200);
    }
    for (const h of [memberSession, aloneSession]) {
      const refused = await me(h);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("RESOURCE_FORBIDDEN");
    }
    // no workspace left: the session is not renewed
    await expectNotRenewed(aloneSession);
    // still a member elsewhere: renewed, and serves that workspace only
    const next = await renewed(memberSession);
    expect((await me(next)).status).toBe(403);
    const elsewhere = await me({ ...next, "x-workspace-id": other.workspaceId });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.workspace.id).toBe(other.workspaceId);
  });
});
