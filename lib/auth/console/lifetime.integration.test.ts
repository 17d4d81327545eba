/**
 * Ending console sessions on the data layer (lib/auth/store/sessions.ts): `endAllSessions` writes
 * the password hash and sessionsValidFrom, answers a missing user 404 RESOURCE_NOT_FOUND;
 * a sign-out (`revokeSession`) is refused by the renewal check (`checkSessionRenewal`).
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { ApiError } from "../../errors";
import { toApiError } from "../../http/pipeline";
import { makeWorkspace } from "../../testing/factories";
import { signInClaims } from "./claims";
import { checkSessionRenewal, endAllSessions, revokeSession, SessionEndedError } from "./lifetime";
import { inTransaction } from "../../db/kysely";

const userRow = (id: string) =>
  kysely().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const scope = { requestId: "req_test", url: new URL("http://localhost/api/sandbox/v1/me"), method: "POST" };

describe("ending console sessions on the database", () => {
  it("sets sessionsValidFrom (and the password hash when given) to now", async () => {
    const ws = await makeWorkspace();
    const before = await userRow(ws.userId);
    const started = Date.now();
    await inTransaction(kysely(), (tx) => endAllSessions(tx, ws.userId, { passwordHash: "scrypt$new" }));
    const after = await userRow(ws.userId);
    expect(after.passwordHash).toBe("scrypt$new");
    expect(after.sessionsValidFrom!.getTime()).toBeGreaterThanOrEqual(started - 1);
    expect(after.sessionsValidFrom!.getTime()).toBeLessThanOrEqual(Date.now() + 1);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

    await endAllSessions(kysely(), ws.userId);
    expect((await userRow(ws.userId)).passwordHash).toBe("scrypt$new");
  });

  it("answers a user who is not there 404 RESOURCE_NOT_FOUND", async () => {
    const error = await endAllSessions(kysely(), "usr_not_there").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(toApiError(error, scope)).toMatchObject({ status: 404, code: "RESOURCE_NOT_FOUND" });
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

    await endAllSessions(kysely(), ws.userId);
    await expect(checkSessionRenewal(kysely(), live)).rejects.toThrow(
      "Your sessions were ended (password change or sign-out of all sessions): sign in again",
    );
  });
});
