/**
 * A console page's first read of its member on the data layer (one prepared statement,
 * lib/auth/store/sessions.ts `readConsoleMember`): the user, the memberships with their
 * workspaces in the order joined, the workspace of the cookie
 * else the oldest — and undefined for an ended session, a user gone or in no workspace.
 */
import { describe, expect, it } from "vitest";
import { revokeSession } from "../auth/console/lifetime";
import { signInClaims, sessionClaimsOf, type SessionClaims } from "../auth/console/claims";
import { kysely } from "../db/client";
import { newId } from "../ids";
import { makeOperator, makeWorkspace } from "../testing/factories";
import { statementsOf } from "../testing/statements";
import { loadConsoleMember } from "./session-member";

function claimsOf(userId: string, isOperator = false): SessionClaims {
  const claims = sessionClaimsOf({ sub: userId, ...signInClaims({ isOperator }) });
  if (!claims) throw new Error("no claims");
  return claims;
}

describe("loadConsoleMember on the database", () => {
  it("reads the user and its memberships in the order joined, the cookie's workspace else the oldest, in one statement", async () => {
    const first = await makeWorkspace("First");
    const second = await makeWorkspace("Second");
    const third = await makeWorkspace("Third");
    // the first workspace's owner joins the other two later, the last of them first
    await kysely()
      .insertInto("memberships")
      .values([
        {
          workspaceId: third.workspaceId,
          userId: first.userId,
          role: "viewer",
          createdAt: new Date(Date.now() + 1000),
        },
        {
          workspaceId: second.workspaceId,
          userId: first.userId,
          role: "developer",
          createdAt: new Date(Date.now() + 2000),
        },
      ])
      .execute();
    const session = claimsOf(first.userId);

    const { result: oldest, statements } = await statementsOf(() =>
      loadConsoleMember(kysely(), { session, environment: "sandbox" }),
    );
    expect(statements).toEqual(["auth_console_member"]);
    // the memberships by createdAt with their workspaces
    expect(oldest).toEqual({
      user: { id: first.userId, email: first.email, name: null },
      workspace: { id: first.workspaceId, name: "First" },
      role: "owner",
      permissions: { write: true, credentials: true, personal_data: true, team: true, team_owner: true },
      memberships: [
        { workspaceId: first.workspaceId, name: "First", role: "owner" },
        { workspaceId: third.workspaceId, name: "Third", role: "viewer" },
        { workspaceId: second.workspaceId, name: "Second", role: "developer" },
      ],
      isOperator: false,
    });
    expect(oldest!.memberships.map((m) => m.name)).toEqual(["First", "Third", "Second"]);

    const chosen = await loadConsoleMember(kysely(), {
      session,
      workspaceId: second.workspaceId,
      environment: "production",
    });
    expect(chosen).toMatchObject({
      workspace: { id: second.workspaceId, name: "Second" },
      role: "developer",
      permissions: { write: true, credentials: false, personal_data: false, team: false, team_owner: false },
    });
    // a workspace the user is not in: the oldest
    const other = await loadConsoleMember(kysely(), {
      session,
      workspaceId: "wsp_other",
      environment: "sandbox",
    });
    expect(other?.workspace.id).toBe(first.workspaceId);
  });

  it("is undefined after the session's sign-out or the end of all sessions, for a user gone or in no workspace", async () => {
    const ws = await makeWorkspace();
    const signedOut = claimsOf(ws.userId);
    const live = claimsOf(ws.userId);
    await revokeSession(kysely(), {
      sub: ws.userId,
      sid: signedOut.sessionId,
      signedInAt: signedOut.signedInAt,
    });
    expect(await loadConsoleMember(kysely(), { session: signedOut, environment: "sandbox" })).toBeUndefined();
    expect(await loadConsoleMember(kysely(), { session: live, environment: "sandbox" })).toBeDefined();

    await kysely()
      .updateTable("users")
      .set({ sessionsValidFrom: new Date(Date.now() + 1000), updatedAt: new Date() })
      .where("id", "=", ws.userId)
      .execute();
    expect(await loadConsoleMember(kysely(), { session: live, environment: "sandbox" })).toBeUndefined();

    expect(
      await loadConsoleMember(kysely(), { session: claimsOf(newId("usr")), environment: "sandbox" }),
    ).toBeUndefined();

    const operator = await makeOperator();
    expect(
      await loadConsoleMember(kysely(), { session: claimsOf(operator.userId, true), environment: "sandbox" }),
    ).toBeUndefined();
    await kysely()
      .insertInto("memberships")
      .values({ workspaceId: ws.workspaceId, userId: operator.userId, role: "admin" })
      .execute();
    expect(
      await loadConsoleMember(kysely(), { session: claimsOf(operator.userId, true), environment: "sandbox" }),
    ).toMatchObject({ isOperator: true, role: "admin", workspace: { id: ws.workspaceId } });
  });
});
