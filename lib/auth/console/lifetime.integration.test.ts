/**
 * Ending console sessions on the data layer (lib/auth/store/sessions.ts): `endAllSessions` writes
 * what Prisma's update wrote and answers a missing user as the pipeline answered Prisma's P2025;
 * a sign-out (`revokeSession`) is refused by the renewal check (`checkSessionRenewal`).
 */
import { describe, expect, it } from "vitest";
import { getDb, kysely, Prisma } from "../../db/client";
import { ApiError } from "../../errors";
import { toApiError } from "../../http/pipeline";
import { makeWorkspace } from "../../testing/factories";
import { signInClaims } from "./claims";
import { checkSessionRenewal, endAllSessions, revokeSession, SessionEndedError } from "./lifetime";

const scope = { requestId: "req_test", url: new URL("http://localhost/api/sandbox/v1/me"), method: "POST" };

describe("ending console sessions on the database", () => {
  it("sets sessionsValidFrom (and the password hash when given) to now, as Prisma's update did", async () => {
    const ws = await makeWorkspace();
    const before = await getDb().user.findUniqueOrThrow({ where: { id: ws.userId } });
    const started = Date.now();
    await getDb().$transaction((tx) => endAllSessions(tx, ws.userId, { passwordHash: "scrypt$new" }));
    const after = await getDb().user.findUniqueOrThrow({ where: { id: ws.userId } });
    expect(after.passwordHash).toBe("scrypt$new");
    expect(after.sessionsValidFrom!.getTime()).toBeGreaterThanOrEqual(started - 1);
    expect(after.sessionsValidFrom!.getTime()).toBeLessThanOrEqual(Date.now() + 1);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

    await endAllSessions(getDb(), ws.userId);
    expect((await getDb().user.findUniqueOrThrow({ where: { id: ws.userId } })).passwordHash).toBe(
      "scrypt$new",
    );
  });

  it("answers a user who is not there as the pipeline answered Prisma's P2025", async () => {
    const error = await endAllSessions(getDb(), "usr_not_there").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    const p2025 = new Prisma.PrismaClientKnownRequestError("No record was found for an update.", {
      code: "P2025",
      clientVersion: "test",
    });
    expect(toApiError(error, scope)).toEqual(toApiError(p2025, scope));
  });

  it("refuses the renewal of a session after its sign-out, and of every session after endAllSessions", async () => {
    const ws = await makeWorkspace();
    const token = () => ({ sub: ws.userId, ...signInClaims({}) });
    const live = token();
    await expect(checkSessionRenewal(kysely(), live)).resolves.toBeUndefined();

    const signedOut = token();
    await revokeSession(kysely(), signedOut);
    await expect(checkSessionRenewal(kysely(), signedOut)).rejects.toThrow(SessionEndedError);
    await expect(checkSessionRenewal(kysely(), live)).resolves.toBeUndefined();

    await endAllSessions(getDb(), ws.userId);
    await expect(checkSessionRenewal(kysely(), live)).rejects.toThrow(
      "Your sessions were ended (password change or sign-out of all sessions): sign in again",
    );
  });
});
