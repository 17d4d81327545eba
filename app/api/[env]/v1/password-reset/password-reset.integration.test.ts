/**
 * Password reset by email, against the run's real SMTP server (lib/testing/mail.ts) and the real
 * job worker: the mail's link, single use, 30 minutes, every session ended, the limits, the same
 * answer for unknown addresses, and no reset at all without mail.
 */
import { randomInt } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { verifyPassword } from "@/lib/crypto/password";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { newId, randomToken } from "@/lib/ids";
import { queueMail } from "@/lib/mail/queue";
import { passwordResetMail } from "@/lib/mail/templates";
import { purgeExpiredMailLinks } from "@/lib/team/link-purge";
import { makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { startJobWorkerForTests } from "@/lib/testing/jobs";
import { linkIn, mailsTo, tokenOf, waitForMail } from "@/lib/testing/mail";
import { call } from "@/lib/testing/router";
import { sql } from "kysely";

startJobWorkerForTests();

const SMTP_URL = process.env.SMTP_URL!;
const PUBLIC_URL = process.env.PUBLIC_URL!;

/** Each test acts from its own address, so per-address limits of one never meet another's. */
function fromAddress(): Record<string, string> {
  return { "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}` };
}

async function requestReset(email: string, headers = fromAddress()) {
  return call("POST", "/api/sandbox/v1/password-reset", { headers, body: { email } });
}

/** Asks for a reset of `email` and returns the token of the mailed link (the `nth` mail to it). */
async function mailedToken(email: string, nth = 1): Promise<string> {
  const res = await requestReset(email);
  expect(res.status).toBe(202);
  const mail = await waitForMail(email, nth);
  return tokenOf(linkIn(mail, `${PUBLIC_URL}/reset-password/`));
}

function userRow(id: string) {
  return kysely().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

afterEach(() => {
  process.env.SMTP_URL = SMTP_URL;
  delete process.env.IDV_PASSWORD_RESET_LIMIT_IP;
  delete process.env.IDV_MAIL_LIMIT_EMAIL;
});

describe("password reset", () => {
  it("mails a single-use link that sets the password, ends every session and is audited", async () => {
    const ws = await makeWorkspace();
    const phone = await sessionHeaders(ws.userId);
    const res = await requestReset(ws.email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "sent_if_account_exists" });

    const mail = await waitForMail(ws.email);
    expect(mail.to).toEqual([ws.email]);
    expect(mail.subject).toBe("Reset your password");
    expect(mail.html).toContain("Choose a new password");
    const link = linkIn(mail, `${PUBLIC_URL}/reset-password/`);
    const token = tokenOf(link);
    expect(token).toMatch(/^[A-Za-z0-9]{43}$/);
    // only the digest is stored
    const row = await kysely()
      .selectFrom("passwordResets")
      .selectAll()
      .where("userId", "=", ws.userId)
      .executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(30 * 60 * 1000);
    const lookup = await call("POST", "/api/sandbox/v1/password-reset/lookup", {
      headers: fromAddress(),
      body: { token },
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({ email: ws.email, expiresAt: row.expiresAt.toISOString() });

    const done = await call("POST", "/api/sandbox/v1/password-reset/complete", {
      headers: fromAddress(),
      body: { token, newPassword: "a fresh new password" },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ reset: true, email: ws.email });
    const user = await userRow(ws.userId);
    expect(await verifyPassword("a fresh new password", user.passwordHash)).toBe(true);
    // every console session ended
    const after = await call("GET", "/api/sandbox/v1/me", { headers: phone });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("INVALID_SESSION");
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .where("action", "=", "user.password_reset")
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({ actorType: "user", actorId: ws.userId, targetId: ws.userId }),
    ]);

    // single use
    const again = await call("POST", "/api/sandbox/v1/password-reset/complete", {
      headers: fromAddress(),
      body: { token, newPassword: "yet another password" },
    });
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe("RESET_LINK_INVALID");
    expect(again.body.error.message).toMatch(/already used/);
    const used = await call("POST", "/api/sandbox/v1/password-reset/lookup", {
      headers: fromAddress(),
      body: { token },
    });
    expect(used.status).toBe(410);
  });

  it("refuses a link after its 30 minutes", async () => {
    const ws = await makeWorkspace();
    const token = await mailedToken(ws.email);
    // move the clock: the link was made 30 minutes and a second ago
    await kysely()
      .updateTable("passwordResets")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("tokenHash", "=", sha256Hex(token))
      .execute();
    for (const path of ["lookup", "complete"]) {
      const res = await call("POST", `/api/sandbox/v1/password-reset/${path}`, {
        headers: fromAddress(),
        body: path === "lookup" ? { token } : { token, newPassword: "a fresh new password" },
      });
      expect(res.status, path).toBe(410);
      expect(res.body.error).toMatchObject({
        code: "RESET_LINK_INVALID",
        message: expect.stringMatching(/expired/),
      });
    }
    const user = await userRow(ws.userId);
    expect(await verifyPassword("correct horse battery staple", user.passwordHash)).toBe(true);
  });

  it("keeps only the newest link working", async () => {
    const ws = await makeWorkspace();
    const first = await mailedToken(ws.email, 1);
    const second = await mailedToken(ws.email, 2);
    const old = await call("POST", "/api/sandbox/v1/password-reset/complete", {
      headers: fromAddress(),
      body: { token: first, newPassword: "a fresh new password" },
    });
    expect(old.status).toBe(410);
    const ok = await call("POST", "/api/sandbox/v1/password-reset/complete", {
      headers: fromAddress(),
      body: { token: second, newPassword: "a fresh new password" },
    });
    expect(ok.status).toBe(200);
  });

  it("answers an unknown address exactly like a known one, and mails nothing", async () => {
    const ws = await makeWorkspace();
    const nobody = `nobody-${randomToken(10).toLowerCase()}@example.test`;
    const known = await requestReset(ws.email);
    const unknown = await requestReset(nobody);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await waitForMail(ws.email);
    expect(mailsTo(nobody)).toEqual([]);
    expect(
      await countRows(
        kysely()
          .selectFrom("passwordResets")
          .innerJoin("users", "users.id", "passwordResets.userId")
          .where("users.email", "=", nobody),
      ),
    ).toBe(0);
  });

  it("limits requests per email and per client address (429 with Retry-After)", async () => {
    process.env.IDV_MAIL_LIMIT_EMAIL = "2";
    const ws = await makeWorkspace();
    expect((await requestReset(ws.email)).status).toBe(202);
    expect((await requestReset(ws.email)).status).toBe(202);
    const over = await requestReset(ws.email);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // an unknown address counts the same way
    const nobody = `nobody-${randomToken(10).toLowerCase()}@example.test`;
    await requestReset(nobody);
    await requestReset(nobody);
    expect((await requestReset(nobody)).status).toBe(429);

    process.env.IDV_PASSWORD_RESET_LIMIT_IP = "3";
    const address = fromAddress();
    for (let i = 0; i < 3; i++) {
      const email = `nobody-${randomToken(10).toLowerCase()}@example.test`;
      expect((await requestReset(email, address)).status).toBe(202);
    }
    const byAddress = await requestReset(`nobody-${randomToken(10).toLowerCase()}@example.test`, address);
    expect(byAddress.status).toBe(429);
    // bad links count towards the same address limit
    const links = fromAddress();
    for (let i = 0; i < 3; i++) {
      const bad = await call("POST", "/api/sandbox/v1/password-reset/lookup", {
        headers: links,
        body: { token: randomToken(43) },
      });
      expect(bad.status).toBe(410);
    }
    const blocked = await call("POST", "/api/sandbox/v1/password-reset/lookup", {
      headers: links,
      body: { token: randomToken(43) },
    });
    expect(blocked.status).toBe(429);
  });

  it("queues mail sealed: the job table never holds the link", async () => {
    const link = `${PUBLIC_URL}/reset-password/${randomToken(43)}`;
    await kysely()
      .transaction()
      .execute(async (tx) => {
        await queueMail(tx, "password_reset", passwordResetMail({ to: "someone@example.test", url: link }));
        const { rows } = await sql<{ payload: unknown }>`
          SELECT j.payload FROM graphile_worker._private_jobs j
            JOIN graphile_worker._private_tasks t ON t.id = j.task_id
           WHERE t.identifier = 'mail_send' ORDER BY j.id DESC LIMIT 1`.execute(tx);
        expect(rows).toHaveLength(1);
        const text = JSON.stringify(rows[0]!.payload);
        expect(text).toContain('"kind":"password_reset"');
        expect(text).not.toContain(link.split("/").pop()!);
        expect(text).not.toContain("someone@example.test");
        throw new Error("roll back");
      })
      .catch((err: Error) => expect(err.message).toBe("roll back"));
  });

  it("deletes links a day after they expired (mail_link_purge), keeping the others", async () => {
    const ws = await makeWorkspace();
    const token = await mailedToken(ws.email);
    const db = kysely();
    const now = new Date();
    const old = await db
      .insertInto("passwordResets")
      .values({
        id: newId("pwr"),
        userId: ws.userId,
        tokenHash: sha256Hex(randomToken(43)),
        expiresAt: new Date(now.getTime() - 25 * 60 * 60 * 1000),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const recent = await db
      .insertInto("passwordResets")
      .values({
        id: newId("pwr"),
        userId: ws.userId,
        tokenHash: sha256Hex(randomToken(43)),
        expiresAt: new Date(now.getTime() - 23 * 60 * 60 * 1000),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const pending = await db
      .insertInto("signupRequests")
      .values({
        id: newId("sup"),
        email: "old-signup@example.test",
        workspaceName: "Old",
        passwordHash: "x",
        tokenHash: sha256Hex(randomToken(43)),
        expiresAt: new Date(now.getTime() - 25 * 60 * 60 * 1000),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const counts = await purgeExpiredMailLinks(db, { now, batchSize: 1 });
    expect(counts.passwordResets).toBeGreaterThanOrEqual(1);
    expect(counts.signupRequests).toBeGreaterThanOrEqual(1);
    const reset = (column: "id" | "tokenHash", value: string) =>
      db.selectFrom("passwordResets").selectAll().where(column, "=", value).executeTakeFirst();
    expect(await reset("id", old.id)).toBeUndefined();
    expect(
      await db.selectFrom("signupRequests").selectAll().where("id", "=", pending.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await reset("id", recent.id)).toBeDefined();
    expect(await reset("tokenHash", sha256Hex(token))).toBeDefined();
  });

  it("is unavailable without mail: 403 PASSWORD_RESET_UNAVAILABLE, nothing stored", async () => {
    delete process.env.SMTP_URL;
    const ws = await makeWorkspace();
    const res = await requestReset(ws.email);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("PASSWORD_RESET_UNAVAILABLE");
    expect(await countRows(kysely().selectFrom("passwordResets").where("userId", "=", ws.userId))).toBe(0);
  });
});
