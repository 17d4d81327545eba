import { randomInt } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { verifyPassword } from "@/lib/crypto/password";
import { kysely } from "@/lib/db/client";
import { randomToken } from "@/lib/ids";
import { addMember, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";
import { countRows, inTransaction } from "@/lib/db/kysely";
import { sql } from "kysely";

const MEMBER_PASSWORD = "member password 1"; // addMember's

/** Each test acts from its own address, so per-address limits of one never meet another's. */
function fromAddress(): Record<string, string> {
  return { "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}` };
}

function newEmail(): string {
  return `invitee-${randomToken(10).toLowerCase()}@example.test`;
}

function tokenOf(url: string): string {
  return url.split("/invite/")[1]!;
}

async function invite(
  headers: Record<string, string>,
  body: { email: string; role: string },
  env = "sandbox",
) {
  const res = await call("POST", `/api/${env}/v1/team/invitations`, { headers, body });
  if (res.status !== 201) throw new Error(`inviting failed: ${res.status} ${res.text}`);
  return res.body as { invitationId: string; url: string; email: string; role: string; expiresAt: string };
}

function userRow(id: string) {
  return kysely().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

function invitationRow(id: string) {
  return kysely().selectFrom("invitations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

function membershipsOf(workspaceId: string) {
  return kysely().selectFrom("memberships").where("workspaceId", "=", workspaceId);
}

function membershipRow(workspaceId: string, userId: string) {
  return membershipsOf(workspaceId).selectAll().where("userId", "=", userId).executeTakeFirstOrThrow();
}

/** The workspace's audit events of `action`. */
function auditOf(workspaceId: string, action: string) {
  return kysely()
    .selectFrom("auditEvents")
    .where("workspaceId", "=", workspaceId)
    .where("action", "=", action);
}

afterEach(() => {
  delete process.env.IDV_INVITATION_LIMIT_IP;
});

describe("GET /v1/team/members", () => {
  it("lists the workspace's members, oldest first, the same under both environments", async () => {
    const ws = await makeWorkspace();
    const dev = await addMember(ws.workspaceId, "developer");
    await kysely()
      .updateTable("users")
      .set({ lastSignInAt: new Date("2026-01-02"), updatedAt: new Date() })
      .where("id", "=", ws.userId)
      .execute();
    const other = await makeWorkspace();
    await addMember(other.workspaceId, "admin");

    const headers = await sessionHeaders(dev.userId);
    const res = await call("GET", "/api/sandbox/v1/team/members", { headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, limit: 100, offset: 0, hasMore: false });
    expect(res.body.data).toEqual([
      {
        userId: ws.userId,
        email: ws.email,
        name: null,
        role: "owner",
        joinedAt: expect.any(String),
        lastSignInAt: "2026-01-02T00:00:00.000Z",
        isYou: false,
      },
      {
        userId: dev.userId,
        email: dev.email,
        name: null,
        role: "developer",
        joinedAt: expect.any(String),
        lastSignInAt: null,
        isYou: true,
      },
    ]);
    const production = await call("GET", "/api/production/v1/team/members", { headers });
    expect(production.body.data).toEqual(res.body.data);

    const byKey = await call("GET", "/api/production/v1/team/members", {
      headers: bearer(ws.keys.production),
    });
    expect(byKey.body.data.map((m: { isYou: boolean }) => m.isYou)).toEqual([false, false]);

    const page = await call("GET", "/api/sandbox/v1/team/members?limit=1&offset=1", { headers });
    expect(page.body).toMatchObject({ total: 2, hasMore: false, data: [{ userId: dev.userId }] });
  });

  it("refuses a session asking for a workspace it is not a member of", async () => {
    const ws = await makeWorkspace();
    const other = await makeWorkspace();
    const res = await call("GET", "/api/sandbox/v1/team/members", {
      headers: await sessionHeaders(ws.userId, { workspaceId: other.workspaceId }),
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("RESOURCE_FORBIDDEN");
  });
});

describe("PATCH /v1/team/members/{user_id}", () => {
  it("lets an admin change roles below owner, audited", async () => {
    const ws = await makeWorkspace();
    const admin = await addMember(ws.workspaceId, "admin");
    const dev = await addMember(ws.workspaceId, "developer");
    const res = await call("PATCH", `/api/production/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(admin.userId),
      body: { role: "viewer" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: dev.userId, role: "viewer", isYou: false });
    const membership = await membershipRow(ws.workspaceId, dev.userId);
    expect(membership.role).toBe("viewer");
    const audit = await auditOf(ws.workspaceId, "member.role_changed").selectAll().executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actorType: "user",
      actorId: admin.userId,
      environment: null,
      targetId: dev.userId,
      data: { from: "developer", to: "viewer", email: dev.email },
    });
    // the new role applies to the member's next request
    const refused = await call("POST", "/api/sandbox/v1/apps", {
      headers: await sessionHeaders(dev.userId),
      body: { name: "x" },
    });
    expect(refused.status).toBe(403);
  });

  it("needs team_owner to grant or take the owner role", async () => {
    const ws = await makeWorkspace();
    const admin = await addMember(ws.workspaceId, "admin");
    const dev = await addMember(ws.workspaceId, "developer");
    const adminHeaders = await sessionHeaders(admin.userId);
    const grant = await call("PATCH", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: adminHeaders,
      body: { role: "owner" },
    });
    expect(grant.status).toBe(403);
    expect(grant.body.error.message).toMatch(/owner role/);
    const selfPromote = await call("PATCH", `/api/sandbox/v1/team/members/${admin.userId}`, {
      headers: adminHeaders,
      body: { role: "owner" },
    });
    expect(selfPromote.status).toBe(403);
    const demoteOwner = await call("PATCH", `/api/sandbox/v1/team/members/${ws.userId}`, {
      headers: adminHeaders,
      body: { role: "viewer" },
    });
    expect(demoteOwner.status).toBe(403);
    // an API key acts as admin: no owner role either
    const byKey = await call("PATCH", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: bearer(ws.keys.sandbox),
      body: { role: "owner" },
    });
    expect(byKey.status).toBe(403);

    const byOwner = await call("PATCH", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(ws.userId),
      body: { role: "owner" },
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.role).toBe("owner");
    const roles = await membershipsOf(ws.workspaceId).selectAll().where("role", "=", "owner").execute();
    expect(roles.map((m) => m.userId).sort()).toEqual([ws.userId, dev.userId].sort());
  });

  it("refuses developers and viewers, unknown members, other workspaces' users and bad roles", async () => {
    const ws = await makeWorkspace();
    const viewer = await addMember(ws.workspaceId, "viewer");
    for (const role of ["developer", "viewer"] as const) {
      const member = await addMember(ws.workspaceId, role);
      const res = await call("PATCH", `/api/sandbox/v1/team/members/${viewer.userId}`, {
        headers: await sessionHeaders(member.userId),
        body: { role: "admin" },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("RESOURCE_FORBIDDEN");
    }
    const owner = await sessionHeaders(ws.userId);
    const other = await makeWorkspace();
    const outsider = await addMember(other.workspaceId, "viewer");
    for (const userId of [outsider.userId, other.userId, "usr_unknown"]) {
      const res = await call("PATCH", `/api/sandbox/v1/team/members/${userId}`, {
        headers: owner,
        body: { role: "admin" },
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
    }
    expect(
      (
        await kysely()
          .selectFrom("memberships")
          .selectAll()
          .where("userId", "=", outsider.userId)
          .executeTakeFirstOrThrow()
      ).role,
    ).toBe("viewer");
    const bad = await call("PATCH", `/api/sandbox/v1/team/members/${viewer.userId}`, {
      headers: owner,
      body: { role: "superuser" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("role");
  });

  it("never demotes the last owner", async () => {
    const ws = await makeWorkspace();
    const owner = await sessionHeaders(ws.userId);
    const res = await call("PATCH", `/api/sandbox/v1/team/members/${ws.userId}`, {
      headers: owner,
      body: { role: "admin" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("LAST_OWNER");
    const second = await addMember(ws.workspaceId, "owner");
    const now = await call("PATCH", `/api/sandbox/v1/team/members/${ws.userId}`, {
      headers: owner,
      body: { role: "admin" },
    });
    expect(now.status).toBe(200);
    const last = await call("PATCH", `/api/sandbox/v1/team/members/${second.userId}`, {
      headers: await sessionHeaders(second.userId),
      body: { role: "developer" },
    });
    expect(last.status).toBe(409);
  });

  it("refuses cookie writes without a same-origin Origin (CSRF)", async () => {
    const ws = await makeWorkspace();
    const dev = await addMember(ws.workspaceId, "developer");
    for (const origin of [null, "https://evil.example"]) {
      const res = await call("PATCH", `/api/sandbox/v1/team/members/${dev.userId}`, {
        headers: await sessionHeaders(ws.userId, { origin }),
        body: { role: "admin" },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    }
    const del = await call("DELETE", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(ws.userId, { origin: null }),
    });
    expect(del.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    expect((await membershipRow(ws.workspaceId, dev.userId)).role).toBe("developer");
  });
});

describe("DELETE /v1/team/members/{user_id}", () => {
  it("lets an admin remove a member, whose session loses access at once", async () => {
    const ws = await makeWorkspace();
    const admin = await addMember(ws.workspaceId, "admin");
    const dev = await addMember(ws.workspaceId, "developer");
    const devHeaders = await sessionHeaders(dev.userId);
    expect((await call("GET", "/api/sandbox/v1/apps", { headers: devHeaders })).status).toBe(200);
    const res = await call("DELETE", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(admin.userId),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ removed: true });
    const after = await call("GET", "/api/sandbox/v1/apps", { headers: devHeaders });
    expect(after.status).toBe(403);
    expect(await countRows(kysely().selectFrom("users").where("id", "=", dev.userId))).toBe(1); // the account stays
    const audit = await auditOf(ws.workspaceId, "member.removed").selectAll().executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actorId: admin.userId, targetId: dev.userId, data: { left: false } });
    const again = await call("DELETE", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(admin.userId),
    });
    expect(again.status).toBe(404);
  });

  it("lets every member leave, but only team managers remove others, and only owners remove owners", async () => {
    const ws = await makeWorkspace();
    const viewer = await addMember(ws.workspaceId, "viewer");
    const dev = await addMember(ws.workspaceId, "developer");
    const admin = await addMember(ws.workspaceId, "admin");
    const second = await addMember(ws.workspaceId, "owner");

    const viewerRemovesDev = await call("DELETE", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(viewer.userId),
    });
    expect(viewerRemovesDev.status).toBe(403);
    const devRemovesViewer = await call("DELETE", `/api/sandbox/v1/team/members/${viewer.userId}`, {
      headers: await sessionHeaders(dev.userId),
    });
    expect(devRemovesViewer.status).toBe(403);
    const adminRemovesOwner = await call("DELETE", `/api/sandbox/v1/team/members/${second.userId}`, {
      headers: await sessionHeaders(admin.userId),
    });
    expect(adminRemovesOwner.status).toBe(403);

    const viewerLeaves = await call("DELETE", `/api/production/v1/team/members/${viewer.userId}`, {
      headers: await sessionHeaders(viewer.userId),
    });
    expect(viewerLeaves.status).toBe(200);
    const ownerRemovesOwner = await call("DELETE", `/api/sandbox/v1/team/members/${second.userId}`, {
      headers: await sessionHeaders(ws.userId),
    });
    expect(ownerRemovesOwner.status).toBe(200);
    const keyRemovesDev = await call("DELETE", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(keyRemovesDev.status).toBe(200);

    const left = await membershipsOf(ws.workspaceId).selectAll().execute();
    expect(left.map((m) => m.userId).sort()).toEqual([ws.userId, admin.userId].sort());
    const audit = await auditOf(ws.workspaceId, "member.removed")
      .selectAll()
      .orderBy("createdAt", "asc")
      .execute();
    expect(audit.map((a) => [a.actorType, a.targetId, (a.data as { left: boolean }).left])).toEqual([
      ["user", viewer.userId, true],
      ["user", second.userId, false],
      ["api_key", dev.userId, false],
    ]);
  });

  it("never lets the last owner leave or be removed", async () => {
    const ws = await makeWorkspace();
    const res = await call("DELETE", `/api/sandbox/v1/team/members/${ws.userId}`, {
      headers: await sessionHeaders(ws.userId),
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("LAST_OWNER");
    expect(res.body.error.message).toMatch(/only owner/);
    expect(await countRows(membershipsOf(ws.workspaceId))).toBe(1);
  });

  it("keeps one owner when two owners leave at the same moment", async () => {
    const ws = await makeWorkspace();
    const second = await addMember(ws.workspaceId, "owner");
    const headers = await Promise.all([ws.userId, second.userId].map((id) => sessionHeaders(id)));
    // hold the workspace's rows so that both requests are surely in flight together
    let requests: Promise<{ status: number }[]> | undefined;
    await inTransaction(kysely(), async (tx) => {
      await sql`SELECT id FROM workspaces WHERE id = ${ws.workspaceId} FOR UPDATE`.execute(tx);
      await sql`SELECT user_id FROM memberships WHERE workspace_id = ${ws.workspaceId} FOR UPDATE`.execute(
        tx,
      );
      requests = Promise.all(
        [ws.userId, second.userId].map((userId, i) =>
          call("DELETE", `/api/sandbox/v1/team/members/${userId}`, { headers: headers[i] }),
        ),
      );
      await new Promise((r) => setTimeout(r, 500));
    });
    const results = await requests!;
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await countRows(membershipsOf(ws.workspaceId).where("role", "=", "owner"))).toBe(1);
  });

  it("does not touch other workspaces' members", async () => {
    const ws = await makeWorkspace();
    const other = await makeWorkspace();
    const res = await call("DELETE", `/api/sandbox/v1/team/members/${other.userId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(res.status).toBe(404);
    expect(await countRows(membershipsOf(other.workspaceId))).toBe(1);
  });
});

describe("invitations", () => {
  it("creates a single-use link, storing only its hash, listed as pending, audited", async () => {
    const ws = await makeWorkspace();
    const admin = await addMember(ws.workspaceId, "admin");
    const email = newEmail();
    const res = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: await sessionHeaders(admin.userId),
      body: { email: email.toUpperCase(), role: "developer" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      invitationId: expect.stringMatching(/^inv_/),
      email,
      role: "developer",
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      url: expect.stringMatching(/^http:\/\/localhost:3000\/invite\/[A-Za-z0-9]{32,}$/),
      // the run's SMTP server is configured (team-mail.integration.test.ts reads the mail)
      emailed: true,
    });
    const ttl = Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt);
    expect(ttl).toBe(7 * 24 * 60 * 60 * 1000);
    const token = tokenOf(res.body.url);
    const row = await invitationRow(res.body.invitationId);
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const list = await call("GET", "/api/production/v1/team/invitations", {
      headers: await sessionHeaders(ws.userId),
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        invitationId: res.body.invitationId,
        email,
        role: "developer",
        expiresAt: res.body.expiresAt,
        createdAt: res.body.createdAt,
        createdBy: { userId: admin.userId, email: admin.email },
      },
    ]);
    expect(list.text).not.toContain(token);
    const audit = await auditOf(ws.workspaceId, "invitation.created").selectAll().executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actorId: admin.userId, targetId: res.body.invitationId });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("needs team to invite and team_owner to invite an owner", async () => {
    const ws = await makeWorkspace();
    const admin = await addMember(ws.workspaceId, "admin");
    for (const role of ["developer", "viewer"] as const) {
      const member = await addMember(ws.workspaceId, role);
      const res = await call("POST", "/api/sandbox/v1/team/invitations", {
        headers: await sessionHeaders(member.userId),
        body: { email: newEmail(), role: "viewer" },
      });
      expect(res.status).toBe(403);
    }
    const adminOwner = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: await sessionHeaders(admin.userId),
      body: { email: newEmail(), role: "owner" },
    });
    expect(adminOwner.status).toBe(403);
    const keyOwner = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: bearer(ws.keys.sandbox),
      body: { email: newEmail(), role: "owner" },
    });
    expect(keyOwner.status).toBe(403);
    const byKey = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: bearer(ws.keys.sandbox),
      body: { email: newEmail(), role: "admin" },
    });
    expect(byKey.status).toBe(201);
    const ownerOwner = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: await sessionHeaders(ws.userId),
      body: { email: newEmail(), role: "owner" },
    });
    expect(ownerOwner.status).toBe(201);
    const list = await call("GET", "/api/sandbox/v1/team/invitations", { headers: bearer(ws.keys.sandbox) });
    expect(list.body.data.map((i: { role: string }) => i.role)).toEqual(["owner", "admin"]);
    expect(list.body.data[1].createdBy).toBeNull();
  });

  it("refuses members' emails and bad bodies; a new invitation replaces the pending one", async () => {
    const ws = await makeWorkspace();
    const owner = await sessionHeaders(ws.userId);
    const member = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: owner,
      body: { email: ws.email, role: "admin" },
    });
    expect(member.status).toBe(409);
    expect(member.body.error.code).toBe("ALREADY_MEMBER");
    for (const body of [
      { email: "nope", role: "admin" },
      { email: newEmail(), role: "king" },
      { email: newEmail() },
    ]) {
      const res = await call("POST", "/api/sandbox/v1/team/invitations", { headers: owner, body });
      expect(res.status).toBe(400);
    }
    const email = newEmail();
    const first = await invite(owner, { email, role: "viewer" });
    const second = await invite(owner, { email, role: "developer" });
    const list = await call("GET", "/api/sandbox/v1/team/invitations", { headers: owner });
    expect(list.body.data.map((i: { invitationId: string }) => i.invitationId)).toEqual([
      second.invitationId,
    ]);
    const lookup = await call("POST", "/api/sandbox/v1/invitations/lookup", {
      headers: fromAddress(),
      body: { token: tokenOf(first.url) },
    });
    expect(lookup.status).toBe(410);
  });

  it("lets a new person join: lookup, accept with a password, then never again", async () => {
    const ws = await makeWorkspace("Joinable");
    const inv = await invite(await sessionHeaders(ws.userId), { email: newEmail(), role: "developer" });
    const token = tokenOf(inv.url);
    const address = fromAddress();

    const lookup = await call("POST", "/api/sandbox/v1/invitations/lookup", {
      headers: address,
      body: { token },
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({
      workspaceName: "Joinable",
      email: inv.email,
      role: "developer",
      expiresAt: inv.expiresAt,
      existingUser: false,
    });

    const short = await call("POST", "/api/sandbox/v1/invitations/accept", {
      headers: address,
      body: { token, password: "short" },
    });
    expect(short.status).toBe(400);
    expect(short.body.error.details[0].path).toBe("password");

    const accept = await call("POST", "/api/sandbox/v1/invitations/accept", {
      headers: address,
      body: { token, name: "Grace Hopper", password: "my own new password" },
    });
    expect(accept.status).toBe(200);
    expect(accept.body).toEqual({
      workspaceId: ws.workspaceId,
      userId: expect.stringMatching(/^usr_/),
      email: inv.email,
    });
    const user = await userRow(accept.body.userId);
    expect(user).toMatchObject({ email: inv.email, name: "Grace Hopper" });
    expect(await verifyPassword("my own new password", user.passwordHash)).toBe(true);
    const me = await call("GET", "/api/sandbox/v1/me", { headers: await sessionHeaders(user.id) });
    expect(me.body).toMatchObject({ role: "developer", workspace: { id: ws.workspaceId } });

    for (const path of ["accept", "lookup"]) {
      const again = await call("POST", `/api/sandbox/v1/invitations/${path}`, {
        headers: address,
        body: path === "accept" ? { token, password: "my own new password" } : { token },
      });
      expect(again.status).toBe(410);
      expect(again.body.error.code).toBe("INVITATION_INVALID");
    }
    const row = await invitationRow(inv.invitationId);
    expect(row.acceptedBy).toBe(user.id);
    expect(row.acceptedAt).not.toBeNull();
    const pending = await call("GET", "/api/sandbox/v1/team/invitations", {
      headers: bearer(ws.keys.sandbox),
    });
    expect(pending.body.data).toEqual([]);
    const audit = await auditOf(ws.workspaceId, "invitation.accepted").selectAll().executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actorType: "user", actorId: user.id, targetId: inv.invitationId });
  });

  it("accepts for an existing account only with its own password, and never duplicates a member", async () => {
    const ws = await makeWorkspace();
    const elsewhere = await makeWorkspace();
    const existing = await addMember(elsewhere.workspaceId, "viewer");
    const owner = await sessionHeaders(ws.userId);
    const inv = await invite(owner, { email: existing.email, role: "admin" });
    const token = tokenOf(inv.url);
    const address = fromAddress();

    const lookup = await call("POST", "/api/sandbox/v1/invitations/lookup", {
      headers: address,
      body: { token },
    });
    expect(lookup.body.existingUser).toBe(true);
    const wrong = await call("POST", "/api/sandbox/v1/invitations/accept", {
      headers: address,
      body: { token, password: "not my password" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("VALIDATION_ERROR");
    expect(wrong.body.error.details[0].path).toBe("password");
    // the failed attempt did not use the invitation up
    const row = await invitationRow(inv.invitationId);
    expect(row.acceptedAt).toBeNull();

    const right = await call("POST", "/api/sandbox/v1/invitations/accept", {
      headers: address,
      body: { token, password: MEMBER_PASSWORD },
    });
    expect(right.status).toBe(200);
    expect(right.body.userId).toBe(existing.userId);
    const memberships = await kysely()
      .selectFrom("memberships")
      .selectAll()
      .where("userId", "=", existing.userId)
      .execute();
    expect(memberships.map((m) => [m.workspaceId, m.role]).sort()).toEqual(
      [
        [elsewhere.workspaceId, "viewer"],
        [ws.workspaceId, "admin"],
      ].sort(),
    );

    // someone invited after joining by other means: the invitation is used, the member unchanged
    const later = await addMember(ws.workspaceId, "viewer");
    const inv2 = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: owner,
      body: { email: later.email, role: "admin" },
    });
    expect(inv2.status).toBe(409);
    const other = newEmail();
    const inv3 = await invite(owner, { email: other, role: "admin" });
    const joined = await call("POST", "/api/sandbox/v1/invitations/accept", {
      headers: address,
      body: { token: tokenOf(inv3.url), password: "first password" },
    });
    await kysely()
      .updateTable("memberships")
      .set({ role: "viewer" })
      .where("workspaceId", "=", ws.workspaceId)
      .where("userId", "=", joined.body.userId)
      .execute();
    const inv4 = await kysely()
      .insertInto("invitations")
      .values({
        id: `inv_${randomToken(10)}`,
        workspaceId: ws.workspaceId,
        email: other,
        role: "owner",
        tokenHash: sha256Hex("direct-token-for-test"),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const dup = await call("POST", "/api/sandbox/v1/invitations/accept", {
      headers: address,
      body: { token: "direct-token-for-test", password: "first password" },
    });
    expect(dup.status).toBe(200);
    const rows = await membershipsOf(ws.workspaceId)
      .selectAll()
      .where("userId", "=", dup.body.userId)
      .execute();
    expect(rows.map((m) => m.role)).toEqual(["viewer"]);
    expect((await invitationRow(inv4.id)).acceptedAt).not.toBeNull();
  });

  it("refuses expired, revoked and unknown links with 410", async () => {
    const ws = await makeWorkspace();
    const owner = await sessionHeaders(ws.userId);
    const expired = await invite(owner, { email: newEmail(), role: "viewer" });
    await kysely()
      .updateTable("invitations")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", expired.invitationId)
      .execute();
    const revoked = await invite(owner, { email: newEmail(), role: "viewer" });
    const revoke = await call("DELETE", `/api/sandbox/v1/team/invitations/${revoked.invitationId}`, {
      headers: owner,
    });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ revoked: true });

    const address = fromAddress();
    const cases = [
      [tokenOf(expired.url), /expired/],
      [tokenOf(revoked.url), /withdrawn/],
      [randomToken(43), /not valid/],
    ] as const;
    for (const [token, message] of cases) {
      for (const path of ["lookup", "accept"]) {
        const res = await call("POST", `/api/sandbox/v1/invitations/${path}`, {
          headers: address,
          body: path === "accept" ? { token, password: "some password" } : { token },
        });
        expect(res.status).toBe(410);
        expect(res.body.error.code).toBe("INVITATION_INVALID");
        expect(res.body.error.message).toMatch(message);
      }
    }
    const list = await call("GET", "/api/sandbox/v1/team/invitations", { headers: owner });
    expect(list.body.data).toEqual([]);
    expect(
      await countRows(kysely().selectFrom("users").where("email", "in", [expired.email, revoked.email])),
    ).toBe(0);
  });

  it("revokes: twice is fine, accepted ones and other workspaces' are not revocable, audited", async () => {
    const ws = await makeWorkspace();
    const owner = await sessionHeaders(ws.userId);
    const inv = await invite(owner, { email: newEmail(), role: "viewer" });
    const viewer = await addMember(ws.workspaceId, "viewer");
    const refused = await call("DELETE", `/api/sandbox/v1/team/invitations/${inv.invitationId}`, {
      headers: await sessionHeaders(viewer.userId),
    });
    expect(refused.status).toBe(403);
    const other = await makeWorkspace();
    const foreign = await call("DELETE", `/api/sandbox/v1/team/invitations/${inv.invitationId}`, {
      headers: bearer(other.keys.sandbox),
    });
    expect(foreign.status).toBe(404);
    for (let i = 0; i < 2; i++) {
      const res = await call("DELETE", `/api/sandbox/v1/team/invitations/${inv.invitationId}`, {
        headers: owner,
      });
      expect(res.status).toBe(200);
    }
    expect(await countRows(auditOf(ws.workspaceId, "invitation.revoked"))).toBe(1);

    const accepted = await invite(owner, { email: newEmail(), role: "viewer" });
    await call("POST", "/api/sandbox/v1/invitations/accept", {
      headers: fromAddress(),
      body: { token: tokenOf(accepted.url), password: "a fine password" },
    });
    const late = await call("DELETE", `/api/sandbox/v1/team/invitations/${accepted.invitationId}`, {
      headers: owner,
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("INVITATION_NOT_PENDING");
    const unknown = await call("DELETE", "/api/sandbox/v1/team/invitations/inv_unknown", { headers: owner });
    expect(unknown.status).toBe(404);
  });

  it("lets exactly one of two simultaneous accepts through", async () => {
    const ws = await makeWorkspace();
    const inv = await invite(await sessionHeaders(ws.userId), { email: newEmail(), role: "viewer" });
    const body = { token: tokenOf(inv.url), password: "a fine password" };
    // hold the invitation's row so that both accepts are surely in flight together
    let requests: Promise<{ status: number }[]> | undefined;
    await inTransaction(kysely(), async (tx) => {
      await sql`SELECT id FROM invitations WHERE id = ${inv.invitationId} FOR UPDATE`.execute(tx);
      requests = Promise.all([
        call("POST", "/api/sandbox/v1/invitations/accept", { headers: fromAddress(), body }),
        call("POST", "/api/sandbox/v1/invitations/accept", { headers: fromAddress(), body }),
      ]);
      await new Promise((r) => setTimeout(r, 500));
    });
    const results = await requests!;
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    expect(await countRows(kysely().selectFrom("users").where("email", "=", inv.email))).toBe(1);
    expect(await countRows(membershipsOf(ws.workspaceId))).toBe(2);
  });

  it("limits failed link attempts per client address (429 with Retry-After)", async () => {
    process.env.IDV_INVITATION_LIMIT_IP = "2";
    const ws = await makeWorkspace();
    const inv = await invite(await sessionHeaders(ws.userId), { email: newEmail(), role: "viewer" });
    const address = fromAddress();
    for (let i = 0; i < 2; i++) {
      const res = await call("POST", "/api/sandbox/v1/invitations/lookup", {
        headers: address,
        body: { token: randomToken(43) },
      });
      expect(res.status).toBe(410);
    }
    for (const path of ["lookup", "accept"]) {
      const limited = await call("POST", `/api/sandbox/v1/invitations/${path}`, {
        headers: address,
        body:
          path === "accept"
            ? { token: tokenOf(inv.url), password: "a fine password" }
            : { token: tokenOf(inv.url) },
      });
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe("RATE_LIMITED");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const elsewhere = await call("POST", "/api/sandbox/v1/invitations/lookup", {
      headers: fromAddress(),
      body: { token: tokenOf(inv.url) },
    });
    expect(elsewhere.status).toBe(200);
  });
});
