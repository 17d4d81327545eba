/**
 * readOwnedVerificationStatus (one prepared statement, lib/db/sql.ts) answers exactly as
 * toStatusRecord(getOwnedVerification) (Prisma) did for GET /v1/verifications/{id}.
 */
import { describe, expect, it } from "vitest";
import type { AppAuth } from "../auth/app-credentials";
import { getDb } from "../db/client";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { makeVerifyingApp } from "../testing/verifications";
import { getOwnedVerification, readOwnedVerificationStatus, toStatusRecord } from "./read";

async function refusal(promise: Promise<unknown>): Promise<[number, string, string]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const e = error as ApiError;
  return [e.status, e.code, e.message];
}

describe("readOwnedVerificationStatus", () => {
  it("is the status record of getOwnedVerification in every state", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const auth: AppAuth = {
      kind: "app",
      clientId: t.app.clientId,
      workspaceId: t.ws.workspaceId,
      environment: "sandbox",
    };
    const ids: string[] = [];
    const start = async () => {
      const res = await t.start({ providerId: "passport", state: "xyz" });
      expect(res.status).toBe(201);
      ids.push(res.body.verificationId);
      return res.body.verificationId as string;
    };
    await start();
    expect((await t.simulate(await start(), { outcome: "success" })).body.status).toBe("completed");
    expect((await t.simulate(await start(), { outcome: "failure" })).body.status).toBe("failed");
    expect((await t.cancel(await start())).status).toBe(204);
    const expired = await start();
    await getDb().verification.update({
      where: { id: expired },
      data: { status: "expired", statusReason: "session_expired", expiresAt: new Date(Date.now() - 1) },
    });

    const statuses: string[] = [];
    for (const id of ids) {
      const read = await readOwnedVerificationStatus(getDb(), auth, id);
      expect(read).toEqual(toStatusRecord(await getOwnedVerification(getDb(), auth, id)));
      expect((await t.status(id)).body).toEqual(read);
      statuses.push(read.status);
    }
    expect(statuses).toEqual(["awaiting_user_action", "completed", "failed", "cancelled", "expired"]);
    const completed = await readOwnedVerificationStatus(getDb(), auth, ids[1]!);
    expect(completed).toHaveProperty("acr");
    expect(completed).toHaveProperty("verifiedAt");
    expect(await readOwnedVerificationStatus(getDb(), auth, ids[2]!)).toHaveProperty("reason");
  });

  it("refuses as getOwnedVerification: another app's, the other environment's or an unknown session is 404", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const other = await makeVerifyingApp(["passport"]);
    const started = await t.start({ providerId: "passport" });
    const id = started.body.verificationId as string;
    const own: AppAuth = {
      kind: "app",
      clientId: t.app.clientId,
      workspaceId: t.ws.workspaceId,
      environment: "sandbox",
    };
    const cases: [AppAuth, string][] = [
      [{ ...own, clientId: other.app.clientId, workspaceId: other.ws.workspaceId }, id],
      [{ ...own, environment: "production" }, id],
      [own, newId("ver")],
    ];
    for (const [auth, verificationId] of cases) {
      const answer = await refusal(readOwnedVerificationStatus(getDb(), auth, verificationId));
      expect(answer).toEqual(await refusal(getOwnedVerification(getDb(), auth, verificationId)));
      expect(answer.slice(0, 2)).toEqual([404, "RESOURCE_NOT_FOUND"]);
    }
    expect((await other.status(id)).status).toBe(404);
  });
});
