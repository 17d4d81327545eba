import { afterEach, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/crypto/password";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { addMember, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

function userRow(id: string) {
  return kysely().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

const PASSWORD = "correct horse battery staple"; // makeWorkspace's owner password

afterEach(() => {
  delete process.env.IDV_PASSWORD_CHANGE_LIMIT;
});

describe("GET /v1/me", () => {
  it("describes a console user: account, workspace, role, permissions and every membership", async () => {
    const ws = await makeWorkspace("First");
    const other = await makeWorkspace("Second");
    await kysely()
      .insertInto("memberships")
      .values({ workspaceId: other.workspaceId, userId: ws.userId, role: "developer" })
      .execute();
    await kysely()
      .updateTable("users")
      .set({ name: "Ada", updatedAt: new Date() })
      .where("id", "=", ws.userId)
      .execute();

    const res = await call("GET", "/api/production/v1/me", { headers: await sessionHeaders(ws.userId) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: ws.userId, email: ws.email, name: "Ada" },
      actor: { type: "user", id: ws.userId, name: "Ada" },
      workspace: { id: ws.workspaceId, name: "First" },
      environment: "production",
      role: "owner",
      permissions: { write: true, credentials: true, personal_data: true, team: true, team_owner: true },
      memberships: [
        { workspaceId: ws.workspaceId, name: "First", role: "owner" },
        { workspaceId: other.workspaceId, name: "Second", role: "developer" },
      ],
    });

    const second = await call("GET", "/api/production/v1/me", {
      headers: await sessionHeaders(ws.userId, { workspaceId: other.workspaceId }),
    });
    expect(second.body.workspace).toEqual({ id: other.workspaceId, name: "Second" });
    expect(second.body.role).toBe("developer");
    expect(second.body.permissions).toEqual({
      write: true,
      credentials: false,
      personal_data: false,
      team: false,
      team_owner: false,
    });
  });

  it("describes an API key: no user, no memberships, admin of its environment", async () => {
    const ws = await makeWorkspace("Keyed");
    const res = await call("GET", "/api/sandbox/v1/me", { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: null,
      actor: { type: "api_key", id: expect.stringMatching(/^key_/), name: "Default key" },
      workspace: { id: ws.workspaceId, name: "Keyed" },
      environment: "sandbox",
      role: "admin",
      permissions: { write: true, credentials: true, personal_data: true, team: true, team_owner: false },
      memberships: [],
    });
    const wrongEnv = await call("GET", "/api/production/v1/me", { headers: bearer(ws.keys.sandbox) });
    expect(wrongEnv.status).toBe(401);
    expect((await call("GET", "/api/sandbox/v1/me")).status).toBe(401);
  });
});

/**
 * One row per role: what it may do, per capability class. Each class is exercised on a real
 * endpoint, and /v1/me must report exactly what the server enforced.
 */
const MATRIX = {
  owner: { write: true, credentials: { sandbox: true, production: true }, team: true, team_owner: true },
  admin: { write: true, credentials: { sandbox: true, production: true }, team: true, team_owner: false },
  developer: {
    write: true,
    credentials: { sandbox: true, production: false },
    team: false,
    team_owner: false,
  },
  viewer: {
    write: false,
    credentials: { sandbox: false, production: false },
    team: false,
    team_owner: false,
  },
} as const;

describe("roles, per capability class", () => {
  for (const [role, expected] of Object.entries(MATRIX)) {
    it(`${role}: read, write, credentials per environment, team, team_owner`, async () => {
      const ws = await makeWorkspace();
      const userId =
        role === "owner" ? ws.userId : (await addMember(ws.workspaceId, role as "viewer")).userId;
      const headers = await sessionHeaders(userId);
      for (const env of ["sandbox", "production"] as const) {
        const base = `/api/${env}/v1`;
        // read
        expect((await call("GET", `${base}/team/members`, { headers })).status).toBe(200);
        expect((await call("GET", `${base}/api-keys`, { headers })).status).toBe(200);
        expect((await call("GET", `${base}/team/invitations`, { headers })).status).toBe(200);
        // write
        const app = await call("POST", `${base}/apps`, { headers, body: { name: "Role test" } });
        expect(app.status).toBe(expected.write ? 201 : 403);
        // credentials
        const key = await call("POST", `${base}/api-keys`, { headers, body: { name: `${role} key` } });
        expect(key.status).toBe(expected.credentials[env] ? 201 : 403);
        if (key.status === 403) expect(key.body.error.code).toBe("RESOURCE_FORBIDDEN");
        // team
        const invite = await call("POST", `${base}/team/invitations`, {
          headers,
          body: { email: `dev-${role}-${env}@example.test`, role: "developer" },
        });
        expect(invite.status).toBe(expected.team ? 201 : 403);
        // team_owner
        const ownerInvite = await call("POST", `${base}/team/invitations`, {
          headers,
          body: { email: `owner-${role}-${env}@example.test`, role: "owner" },
        });
        expect(ownerInvite.status).toBe(expected.team_owner ? 201 : 403);

        const me = await call("GET", `${base}/me`, { headers });
        expect(me.body.role).toBe(role);
        expect(me.body.permissions).toMatchObject({
          write: expected.write,
          credentials: expected.credentials[env],
          team: expected.team,
          team_owner: expected.team_owner,
        });
      }
      const created = await countRows(
        kysely()
          .selectFrom("apiKeys")
          .where("workspaceId", "=", ws.workspaceId)
          .where("userId", "=", userId)
          .where("name", "=", `${role} key`),
      );
      expect(created).toBe(Number(expected.credentials.sandbox) + Number(expected.credentials.production));
    });
  }
});

describe("POST /v1/me/password", () => {
  it("changes the password and signs out every session, this one included", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const otherDevice = await sessionHeaders(ws.userId);
    const res = await call("POST", "/api/sandbox/v1/me/password", {
      headers,
      body: { currentPassword: PASSWORD, newPassword: "a brand new secret" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signedOut: true });

    for (const h of [headers, otherDevice]) {
      const after = await call("GET", "/api/sandbox/v1/me", { headers: h });
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe("INVALID_SESSION");
    }
    const user = await userRow(ws.userId);
    expect(await verifyPassword("a brand new secret", user.passwordHash)).toBe(true);
    expect(await verifyPassword(PASSWORD, user.passwordHash)).toBe(false);
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .where("action", "=", "user.password_changed")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: "user", actorId: ws.userId, targetId: ws.userId });
    // API keys are not sessions: they keep working
    expect((await call("GET", "/api/sandbox/v1/me", { headers: bearer(ws.keys.sandbox) })).status).toBe(200);

    // a session issued after the change (session times have one-second resolution) works
    await new Promise((r) => setTimeout(r, user.sessionsValidFrom!.getTime() - Date.now() + 20));
    const fresh = await call("GET", "/api/sandbox/v1/me", { headers: await sessionHeaders(ws.userId) });
    expect(fresh.status).toBe(200);
  });

  it("lets every role change its own password", async () => {
    const ws = await makeWorkspace();
    const viewer = await addMember(ws.workspaceId, "viewer");
    const res = await call("POST", "/api/production/v1/me/password", {
      headers: await sessionHeaders(viewer.userId),
      body: { currentPassword: "member password 1", newPassword: "viewer's new password" },
    });
    expect(res.status).toBe(200);
  });

  it("refuses a wrong current password, a reused or short new one, with the field named", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const before = (await userRow(ws.userId)).passwordHash;
    const cases = [
      [{ currentPassword: "not my password", newPassword: "a brand new secret" }, "currentPassword"],
      [{ currentPassword: PASSWORD, newPassword: PASSWORD }, "newPassword"],
      [{ currentPassword: PASSWORD, newPassword: "short" }, "newPassword"],
      [{ newPassword: "a brand new secret" }, "currentPassword"],
      [{ currentPassword: PASSWORD, newPassword: "a brand new secret", extra: 1 }, "extra"],
    ] as const;
    for (const [body, path] of cases) {
      const res = await call("POST", "/api/sandbox/v1/me/password", { headers, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const after = await userRow(ws.userId);
    expect(after.passwordHash).toBe(before);
    expect(after.sessionsValidFrom).toBeNull();
    expect((await call("GET", "/api/sandbox/v1/me", { headers })).status).toBe(200);
  });

  it("is for console users only: an API key gets 403", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/me/password", {
      headers: bearer(ws.keys.sandbox),
      body: { currentPassword: PASSWORD, newPassword: "a brand new secret" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("RESOURCE_FORBIDDEN");
    expect(res.body.error.message).toMatch(/API key has no password/);
  });

  it("refuses a change without a same-origin Origin (CSRF)", async () => {
    const ws = await makeWorkspace();
    const body = { currentPassword: PASSWORD, newPassword: "a brand new secret" };
    for (const origin of [null, "https://evil.example"]) {
      const res = await call("POST", "/api/sandbox/v1/me/password", {
        headers: await sessionHeaders(ws.userId, { origin }),
        body,
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    }
    const user = await userRow(ws.userId);
    expect(await verifyPassword(PASSWORD, user.passwordHash)).toBe(true);
  });

  it("limits wrong current passwords per user (429 with Retry-After)", async () => {
    process.env.IDV_PASSWORD_CHANGE_LIMIT = "2";
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    for (let i = 0; i < 2; i++) {
      const wrong = await call("POST", "/api/sandbox/v1/me/password", {
        headers,
        body: { currentPassword: `guess ${i}`, newPassword: "a brand new secret" },
      });
      expect(wrong.status).toBe(400);
    }
    const limited = await call("POST", "/api/sandbox/v1/me/password", {
      headers,
      body: { currentPassword: PASSWORD, newPassword: "a brand new secret" },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const user = await userRow(ws.userId);
    expect(await verifyPassword(PASSWORD, user.passwordHash)).toBe(true);

    // the limit is per user: another member is not affected
    const admin = await addMember(ws.workspaceId, "admin");
    const other = await call("POST", "/api/sandbox/v1/me/password", {
      headers: await sessionHeaders(admin.userId),
      body: { currentPassword: "member password 1", newPassword: "a brand new secret" },
    });
    expect(other.status).toBe(200);
  });
});
