/**
 * GET /v1/verifications/{id} reads the app's credential and the session in ONE statement
 * (withApi's `authWith`, lib/auth/app-credentials.ts defineAppRowRead) and answers exactly as the
 * reads it replaced: the status record of toStatusRecord(getOwnedVerification), the
 * refusals of authenticateApp (401, counted by the limits of failed checks, 429), then the 404 of
 * getOwnedVerification or of the path check; the same request log entry.
 */
import { describe, expect, it } from "vitest";
import { authenticateApp, type AppAuth } from "../auth/app-credentials";
import { kysely } from "../db/client";
import type { Updateable } from "kysely";
import type { DB } from "../db/kysely";
import { checkPathParams } from "../http/validation";
import { newId } from "../ids";
import { flushRequestLog } from "../request-log/writer";
import { apiErrorOf, refusalOf } from "../testing/api-error";
import { basic, bearer, call, type CallResult } from "../testing/router";
import { statementsOf } from "../testing/statements";
import { makeVerifyingApp } from "../testing/verifications";
import { getOwnedVerification, toStatusRecord } from "./read";
import { restoreEnvAfterEach, setEnv } from "../testing/env";

const JOINED = "verification_status_with_credential";
const CREDENTIAL_ONLY = "auth_app_credential";
/** a failed check counted (lib/rate-limit/credentials.ts): per address, and per client id when it names an app */
const COUNTED = "rate_limits:rlflx-upsert";
const CHALLENGE = 'Basic realm="app-api", charset="UTF-8"';

type TApp = Awaited<ReturnType<typeof makeVerifyingApp>>;

function authOf(t: TApp, environment: "sandbox" | "production" = "sandbox"): AppAuth {
  return { kind: "app", clientId: t.app.clientId, workspaceId: t.ws.workspaceId, environment };
}

/** GET the status of `id` with these headers, and the statements it sent. */
async function statusRead(env: string, id: string, headers: Record<string, string>) {
  const { result, statements } = await statementsOf(() =>
    call("GET", `/api/${env}/v1/verifications/${encodeURIComponent(id)}`, { headers }),
  );
  return { res: result, statements };
}

const answer = (res: CallResult) => [res.status, res.body.error.code, res.body.error.message];

async function started(t: TApp): Promise<string> {
  const res = await t.start({ providerId: "passport", state: "xyz" });
  expect(res.status).toBe(201);
  return res.body.verificationId as string;
}

restoreEnvAfterEach();

/** Writes `data` to session `id` directly (as Prisma's update did, updatedAt too). */
async function updateVerification(id: string, data: Updateable<DB["verifications"]>): Promise<void> {
  await kysely()
    .updateTable("verifications")
    .set({ ...data, updatedAt: new Date() })
    .where("id", "=", id)
    .execute();
}

let nextAddress = 1;
/** An address no other test uses (the limits of failed checks count per address). */
const address = () => `198.51.100.${nextAddress++}`;

describe("GET /v1/verifications/{id}: the credential and the session in one statement", () => {
  it("answers the status record of getOwnedVerification in every state, in one statement", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const open = await started(t);
    const completed = await started(t);
    expect((await t.simulate(completed, { outcome: "success" })).body.status).toBe("completed");
    const failed = await started(t);
    expect((await t.simulate(failed, { outcome: "failure" })).body.status).toBe("failed");
    const cancelled = await started(t);
    expect((await t.cancel(cancelled)).status).toBe(204);
    const expired = await started(t);
    await updateVerification(expired, {
      status: "expired",
      statusReason: "session_expired",
      expiresAt: new Date(Date.now() - 1),
    });
    // a completed session never shows a reason, even with one stored
    const completedWithReason = await started(t);
    await t.simulate(completedWithReason, { outcome: "success" });
    await updateVerification(completedWithReason, { statusReason: "left_over" });

    const records = [];
    for (const id of [open, completed, failed, cancelled, expired, completedWithReason]) {
      const { res, statements } = await statusRead("sandbox", id, t.creds);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(toStatusRecord(await getOwnedVerification(kysely(), authOf(t), id)));
      expect(statements).toEqual([JOINED]);
      records.push(res.body);
    }
    expect(records.map((r) => [r.status, r.reason])).toEqual([
      ["awaiting_user_action", undefined],
      ["completed", undefined],
      ["failed", expect.any(String)],
      ["cancelled", "cancelled_by_integrator"],
      ["expired", "session_expired"],
      ["completed", undefined],
    ]);
    for (const record of [records[1], records[5]]) {
      expect(record).toMatchObject({
        acr: "urn:idv:loa:2",
        service_loa: 2,
        service_loa_label: "substantial",
      });
      expect(record.verifiedAt).toEqual(expect.any(String));
    }
    for (const record of [records[0], records[2], records[3], records[4]]) {
      expect(record).not.toHaveProperty("acr");
      expect(record).not.toHaveProperty("service_loa");
    }
  });

  it("is 404 as getOwnedVerification for another app's, the other environment's and an unknown session", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const other = await makeVerifyingApp(["passport"]);
    const production = await makeVerifyingApp(["passport"], "production");
    const id = await started(t);
    const moved = await started(t);
    // a session of the app's whose environment is not the app's (never written so, but refused)
    await updateVerification(moved, { environment: "production" });
    const unknown = newId("ver");
    const cases: [TApp, "sandbox" | "production", string][] = [
      [other, "sandbox", id],
      [production, "production", id],
      [t, "sandbox", moved],
      [t, "sandbox", unknown],
    ];
    for (const [app, env, verificationId] of cases) {
      const { res, statements } = await statusRead(env, verificationId, app.creds);
      expect(answer(res)).toEqual(
        await refusalOf(getOwnedVerification(kysely(), authOf(app, env), verificationId)),
      );
      expect(answer(res)).toEqual([404, "RESOURCE_NOT_FOUND", `Verification "${verificationId}" not found`]);
      expect(statements).toEqual([JOINED]);
    }
    expect((await t.status(id)).status).toBe(200);
  });

  it("sends a malformed id to no statement but the credential's, then 404 as the path check", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const malformed = [
      "nope",
      "ver_nope",
      newId("app"),
      newId("ver").toLowerCase(),
      `${newId("ver")} `,
      `ver_\u0000${"A".repeat(25)}`,
      `ver_${"A".repeat(200)}`,
    ];
    for (const id of malformed) {
      const { res, statements } = await statusRead("sandbox", id, t.creds);
      const expected = apiErrorOf(() => checkPathParams({ env: "sandbox", verificationId: id }));
      expect(answer(res)).toEqual([expected.status, expected.code, expected.message]);
      expect(res.status).toBe(404);
      expect(statements).toEqual([CREDENTIAL_ONLY]);
    }
    // authentication first: a wrong secret with a malformed id is 401
    const { res } = await statusRead("sandbox", "nope", basic(t.app.clientId, "cs_test_wrong"));
    expect(answer(res)).toEqual([401, "INVALID_CLIENT_CREDENTIALS", "Invalid client credentials"]);
  });

  it("refuses credentials exactly as authenticateApp: wrong, rotated-away, deleted, other environment, Bearer, none, malformed", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const id = await started(t);
    const rotated = await makeVerifyingApp(["passport"]);
    const rotatedId = await started(rotated);
    const rotation = await call("POST", `/api/sandbox/v1/apps/${rotated.app.clientId}/rotate-client-secret`, {
      headers: bearer(rotated.ws.keys.sandbox),
    });
    expect(rotation.status).toBe(200);
    const gone = await makeVerifyingApp(["passport"]);
    const goneId = await started(gone);
    const deletion = await call("DELETE", `/api/sandbox/v1/apps/${gone.app.clientId}`, {
      headers: bearer(gone.ws.keys.sandbox),
    });
    expect(deletion.status).toBe(200);

    // what each sends: the lookup when the header names an app, then the counts of the failure
    const looked = [JOINED, COUNTED, COUNTED];
    const cases: [string, string, string, Record<string, string>, string[]][] = [
      ["wrong secret", "sandbox", id, basic(t.app.clientId, `${t.app.clientSecret}x`), looked],
      ["rotated-away secret", "sandbox", rotatedId, rotated.creds, looked],
      ["deleted app", "sandbox", goneId, gone.creds, looked],
      ["the other environment", "production", id, t.creds, looked],
      ["unknown app", "sandbox", id, basic(newId("app"), t.app.clientSecret), looked],
      ["Bearer", "sandbox", id, bearer(t.ws.keys.sandbox), [COUNTED]],
      ["no header", "sandbox", id, {}, []],
      ["malformed header", "sandbox", id, { authorization: "Basic bm9jb2xvbg==" }, [COUNTED]],
      ["not an app id", "sandbox", id, basic(newId("ver"), t.app.clientSecret), [COUNTED]],
    ];
    for (const [what, env, verificationId, headers, sent] of cases) {
      const { res, statements } = await statusRead(env, verificationId, headers);
      const expected = await refusalOf(
        authenticateApp(
          kysely(),
          headers.authorization ?? null,
          env === "sandbox" ? "sandbox" : "production",
        ),
      );
      expect([what, ...answer(res)]).toEqual([what, ...expected]);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe(CHALLENGE);
      expect([what, statements]).toEqual([what, sent]);
    }
    // the spec's words for a Bearer token, verbatim
    const scheme = await statusRead("sandbox", id, bearer(t.ws.keys.sandbox));
    expect(answer(scheme.res)).toEqual([
      401,
      "INVALID_AUTHORIZATION_SCHEME",
      "Invalid authorization scheme. Use Basic authentication",
    ]);
    // the new secret reads the session
    const fresh = (rotation.body as { clientSecret: string }).clientSecret;
    const { res } = await statusRead("sandbox", rotatedId, basic(rotated.app.clientId, fresh));
    expect(res.status).toBe(200);
  });

  it("counts its failed checks: a client over its limit is 429 but its right secret still reads", async () => {
    setEnv({ IDV_CREDENTIAL_LIMIT_CLIENT: "2" });
    const t = await makeVerifyingApp(["passport"]);
    const id = await started(t);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const wrong = { ...basic(t.app.clientId, `cs_test_wrong${i}`), "x-forwarded-for": address() };
      const { res } = await statusRead("sandbox", id, wrong);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.error.code).toBe("RATE_LIMITED");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([401, 401, 429]);
    const { res } = await statusRead("sandbox", id, { ...t.creds, "x-forwarded-for": address() });
    expect(res.status).toBe(200);
    expect(res.body.verificationId).toBe(id);
  });

  it("counts its failed checks: an address over its limit is refused even the right secret", async () => {
    setEnv({ IDV_CREDENTIAL_LIMIT_IP: "2" });
    const t = await makeVerifyingApp(["passport"]);
    const id = await started(t);
    const ip = address();
    for (let i = 0; i < 2; i++) {
      const wrong = { ...basic(t.app.clientId, `cs_test_wrong${i}`), "x-forwarded-for": ip };
      expect((await statusRead("sandbox", id, wrong)).res.status).toBe(401);
    }
    const { res, statements } = await statusRead("sandbox", id, { ...t.creds, "x-forwarded-for": ip });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("RATE_LIMITED");
    expect(statements).toEqual([]);
    expect((await statusRead("sandbox", id, { ...t.creds, "x-forwarded-for": address() })).res.status).toBe(
      200,
    );
  });

  it("writes the same request log entry: app, credential, verification", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const other = await makeVerifyingApp(["passport"]);
    const id = await started(t);
    const own = await t.status(id);
    const theirs = await other.status(id);
    const malformed = await call("GET", "/api/sandbox/v1/verifications/ver_nope", { headers: t.creds });
    await flushRequestLog();
    const logged = async (res: CallResult) =>
      kysely()
        .selectFrom("apiRequestLogs")
        .selectAll()
        .where("id", "=", res.headers.get("x-request-id") ?? "")
        .executeTakeFirstOrThrow();
    const entry = (app: TApp, verificationId: string, status: number, errorCode: string | null) => ({
      workspaceId: app.ws.workspaceId,
      environment: "sandbox",
      method: "GET",
      path: `/api/sandbox/v1/verifications/${verificationId}`,
      status,
      errorCode,
      credentialType: "app",
      credentialId: app.app.clientId,
      credentialName: null,
      appId: app.app.clientId,
      verificationId,
    });
    expect(await logged(own)).toMatchObject(entry(t, id, 200, null));
    expect(await logged(theirs)).toMatchObject(entry(other, id, 404, "RESOURCE_NOT_FOUND"));
    expect(await logged(malformed)).toMatchObject(entry(t, "ver_nope", 404, "RESOURCE_NOT_FOUND"));
  });
});
