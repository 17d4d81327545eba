/**
 * Issue 12, item 21: a session that has ended stays as it ended. Cancelling it — the App API's
 * DELETE, the Workspace API's POST …/cancel, the end-user's Cancel on the hosted page — is refused
 * (the two APIs with 400 VERIFICATION_TERMINAL) and changes nothing: status, reason, result,
 * personal data, events.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { countRows } from "../db/kysely";
import { bearer, call } from "../testing/router";
import { eventTypes, makeVerifyingApp } from "../testing/verifications";

type TApp = Awaited<ReturnType<typeof makeVerifyingApp>>;

/** How each terminal state is reached through the sandbox simulator. */
const ENDINGS = [
  ["completed", { outcome: "success", identity: "passport-anna-eriksson" }],
  ["failed", { outcome: "failure" }],
  ["cancelled", { outcome: "cancel" }],
  ["expired", { outcome: "expire" }],
] as const;

/** Everything a cancel could change, as the integrator and the database see it. */
async function observe(t: TApp, id: string) {
  const [row, status, userinfo, evidence, events, audit] = await Promise.all([
    kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    t.status(id),
    t.userinfo(id),
    t.evidence(id),
    eventTypes(id),
    countRows(kysely().selectFrom("auditEvents").where("targetId", "=", id)),
  ]);
  const strip = (r: { status: number; body: unknown }) => ({
    status: r.status,
    // request ids differ per call
    body: JSON.parse(JSON.stringify(r.body), (k, v: unknown) =>
      k === "requestId" ? undefined : v,
    ) as unknown,
  });
  return {
    row,
    status: strip(status),
    userinfo: strip(userinfo),
    evidence: strip(evidence),
    events,
    audit,
  };
}

describe("cancelling a session that has ended", () => {
  it.each(ENDINGS)("is refused when %s, and the session keeps its outcome", async (state, outcome) => {
    const t = await makeVerifyingApp();
    const { verificationId: id } = (await t.start({ providerId: "passport" })).body;
    expect((await t.simulate(id, outcome)).body.status).toBe(state);
    const before = await observe(t, id);
    expect(before.row.status).toBe(state);
    expect(before.status.body).toMatchObject({ status: state });
    if (state === "completed") {
      // the result a cancel would delete
      expect(before.row.resultEncrypted).not.toBeNull();
      expect(before.row.personalDataDeletedAt).toBeNull();
      expect(before.userinfo.status).toBe(200);
      expect(before.evidence.status).toBe(200);
    }

    const del = await t.cancel(id);
    expect(del.status).toBe(400);
    expect(del.body.error).toMatchObject({
      code: "VERIFICATION_TERMINAL",
      message: `Verification "${id}" is already ${state}`,
    });

    const byWorkspace = await call("POST", `/api/sandbox/v1/verifications/${id}/cancel`, {
      headers: bearer(t.ws.keys.sandbox),
    });
    expect(byWorkspace.status).toBe(400);
    expect(byWorkspace.body.error.code).toBe("VERIFICATION_TERMINAL");

    // the end-user's Cancel goes back to the page, which shows the outcome
    const byUser = await call("POST", `/verify/${id}/cancel`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(byUser.status).toBe(303);

    // nothing changed: the row (updatedAt included), GET, userinfo, evidence, events, audit
    expect(await observe(t, id)).toEqual(before);
  });
});
