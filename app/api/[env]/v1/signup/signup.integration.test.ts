import { randomInt } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/crypto/password";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { randomToken } from "@/lib/ids";
import { sha256Hex } from "@/lib/crypto/hash";
import { makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { startJobWorkerForTests } from "@/lib/testing/jobs";
import { linkIn, mailsTo, tokenOf, waitForMail } from "@/lib/testing/mail";
import { call } from "@/lib/testing/router";

startJobWorkerForTests();

const SMTP_URL = process.env.SMTP_URL!;
const PUBLIC_URL = process.env.PUBLIC_URL!;

/** Each test signs up from its own address, so the per-address limit of one never meets another's. */
function fromAddress(): Record<string, string> {
  return { "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}` };
}

function newEmail(): string {
  return `signup-${randomToken(10).toLowerCase()}@example.test`;
}

function userRow(id: string) {
  return kysely().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

function workspacesNamed(name: string): Promise<number> {
  return countRows(kysely().selectFrom("workspaces").where("name", "=", name));
}

afterEach(() => {
  process.env.SMTP_URL = SMTP_URL;
  delete process.env.IDV_SIGNUP;
  delete process.env.IDV_SIGNUP_LIMIT_IP;
  delete process.env.IDV_MAIL_LIMIT_EMAIL;
});

describe("POST /v1/signup without mail (SMTP_URL unset): the workspace at once", () => {
  beforeEach(() => {
    delete process.env.SMTP_URL;
  });

  it("creates a workspace and its owner, without API keys, audited", async () => {
    const email = newEmail();
    const res = await call("POST", "/api/sandbox/v1/signup", {
      headers: fromAddress(),
      body: {
        workspaceName: "  Acme Identity ",
        name: "Ada Lovelace",
        email: email.toUpperCase(),
        password: "a long enough password",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      workspaceId: expect.stringMatching(/^ws_/),
      userId: expect.stringMatching(/^usr_/),
      email,
    });
    const workspaceId: string = res.body.workspaceId;
    const workspace = await kysely()
      .selectFrom("workspaces")
      .selectAll()
      .where("id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    expect(workspace.name).toBe("Acme Identity");
    const memberships = await kysely()
      .selectFrom("memberships")
      .selectAll()
      .where("workspaceId", "=", workspaceId)
      .execute();
    expect(memberships).toEqual([expect.objectContaining({ userId: res.body.userId, role: "owner" })]);
    expect(
      await kysely().selectFrom("apiKeys").selectAll().where("workspaceId", "=", workspaceId).execute(),
    ).toEqual([]);
    const user = await userRow(res.body.userId);
    expect(user).toMatchObject({ email, name: "Ada Lovelace" });
    expect(await verifyPassword("a long enough password", user.passwordHash)).toBe(true);
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", res.body.workspaceId)
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        action: "workspace.created",
        actorType: "user",
        actorId: res.body.userId,
        targetId: res.body.workspaceId,
      }),
    ]);

    // the new owner can use the console at once
    const me = await call("GET", "/api/sandbox/v1/me", { headers: await sessionHeaders(res.body.userId) });
    expect(me.body).toMatchObject({ role: "owner", workspace: { name: "Acme Identity" } });
    const keys = await call("GET", "/api/sandbox/v1/api-keys", {
      headers: await sessionHeaders(res.body.userId),
    });
    expect(keys.body.data).toEqual([]);
  });

  it("answers the same under the production path", async () => {
    const res = await call("POST", "/api/production/v1/signup", {
      headers: fromAddress(),
      body: { workspaceName: "Prod signup", email: newEmail(), password: "a long enough password" },
    });
    expect(res.status).toBe(201);
  });

  it("applies the CLI's validation, naming each field", async () => {
    const cases = [
      [{ workspaceName: "W", email: "not-an-email", password: "long enough" }, "email"],
      [{ workspaceName: "W", email: newEmail(), password: "short" }, "password"],
      [{ workspaceName: "  ", email: newEmail(), password: "long enough" }, "workspaceName"],
      [{ workspaceName: "x".repeat(101), email: newEmail(), password: "long enough" }, "workspaceName"],
      [{ email: newEmail(), password: "long enough" }, "workspaceName"],
      [{ workspaceName: "W", name: "", email: newEmail(), password: "long enough" }, "name"],
      [{ workspaceName: "W", email: newEmail(), password: "long enough", role: "owner" }, "role"],
    ] as const;
    for (const [body, path] of cases) {
      const res = await call("POST", "/api/sandbox/v1/signup", { headers: fromAddress(), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it("adds a workspace to an existing account only with that account's password", async () => {
    const existing = await makeWorkspace("Existing");
    const wrong = await call("POST", "/api/sandbox/v1/signup", {
      headers: fromAddress(),
      body: { workspaceName: "Takeover", email: existing.email, password: "not the password" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("VALIDATION_ERROR");
    expect(wrong.body.error.details).toEqual([
      { path: "email", message: "cannot be used for sign-up; sign in instead, or use another email" },
    ]);
    expect(await workspacesNamed("Takeover")).toBe(0);

    const right = await call("POST", "/api/sandbox/v1/signup", {
      headers: fromAddress(),
      body: {
        workspaceName: "Second of mine",
        email: existing.email,
        password: "correct horse battery staple",
      },
    });
    expect(right.status).toBe(201);
    expect(right.body.userId).toBe(existing.userId);
    const memberships = await kysely()
      .selectFrom("memberships")
      .selectAll()
      .where("userId", "=", existing.userId)
      .execute();
    expect(memberships.map((m) => m.role)).toEqual(["owner", "owner"]);
  });

  it("is refused when the operator turned sign-up off (IDV_SIGNUP=off)", async () => {
    process.env.IDV_SIGNUP = "off";
    const email = newEmail();
    const res = await call("POST", "/api/sandbox/v1/signup", {
      headers: fromAddress(),
      body: { workspaceName: "Nope", email, password: "a long enough password" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("SIGNUP_DISABLED");
    expect(await countRows(kysely().selectFrom("users").where("email", "=", email))).toBe(0);
  });

  it("limits sign-ups per client address (429 with Retry-After)", async () => {
    process.env.IDV_SIGNUP_LIMIT_IP = "2";
    const address = fromAddress();
    for (let i = 0; i < 2; i++) {
      const ok = await call("POST", "/api/sandbox/v1/signup", {
        headers: address,
        body: { workspaceName: `Spam ${i}`, email: newEmail(), password: "a long enough password" },
      });
      expect(ok.status).toBe(201);
    }
    const email = newEmail();
    const limited = await call("POST", "/api/sandbox/v1/signup", {
      headers: address,
      body: { workspaceName: "Spam 3", email, password: "a long enough password" },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await countRows(kysely().selectFrom("users").where("email", "=", email))).toBe(0);

    const elsewhere = await call("POST", "/api/sandbox/v1/signup", {
      headers: fromAddress(),
      body: { workspaceName: "Elsewhere", email, password: "a long enough password" },
    });
    expect(elsewhere.status).toBe(201);
  });
});

describe("POST /v1/signup with mail: the same answer for every address, finished by email", () => {
  const PASSWORD = "a long enough password";

  async function signUpWith(email: string, password = PASSWORD, workspaceName = "Mailed Co") {
    return call("POST", "/api/sandbox/v1/signup", {
      headers: fromAddress(),
      body: { workspaceName, name: "Ada", email, password },
    });
  }

  it("answers a new and an existing address identically (status and body), creating nothing", async () => {
    const existing = await makeWorkspace("Existing");
    const email = newEmail();
    const fresh = await signUpWith(email);
    const known = await signUpWith(existing.email);
    const knownRightPassword = await signUpWith(existing.email, "correct horse battery staple");
    for (const res of [fresh, known, knownRightPassword]) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ status: "confirmation_sent" });
    }
    expect(known.text).toBe(fresh.text);
    expect(await countRows(kysely().selectFrom("users").where("email", "=", email))).toBe(0);
    expect(await countRows(kysely().selectFrom("memberships").where("userId", "=", existing.userId))).toBe(1);
    expect(await workspacesNamed("Mailed Co")).toBe(0);

    // the existing account's owner is told, twice (once per attempt), with no link that acts
    const notice = await waitForMail(existing.email, 2);
    expect(notice.subject).toBe("Someone tried to sign up with your address");
    expect(notice.to).toEqual([existing.email]);
    expect(notice.links).toEqual([`${PUBLIC_URL}/`, `${PUBLIC_URL}/forgot-password`]);
    const confirmation = await waitForMail(email);
    expect(confirmation.subject).toBe("Confirm your email to create your workspace");
  });

  it("creates the workspace and its owner from the emailed link with the sign-up's password, once", async () => {
    const email = newEmail();
    expect((await signUpWith(email.toUpperCase(), PASSWORD, "Confirmed Co")).status).toBe(202);
    const mail = await waitForMail(email);
    expect(mail.to).toEqual([email]);
    expect(mail.text).toContain('"Confirmed Co"');
    const token = tokenOf(linkIn(mail, `${PUBLIC_URL}/signup/confirm/`));
    const pending = await kysely()
      .selectFrom("signupRequests")
      .selectAll()
      .where("tokenHash", "=", sha256Hex(token))
      .executeTakeFirstOrThrow();
    expect(pending.expiresAt.getTime() - pending.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);

    const wrong = await call("POST", "/api/sandbox/v1/signup/confirm", {
      headers: fromAddress(),
      body: { token, password: "not the password" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([
      { path: "password", message: "is not the password you chose when signing up" },
    ]);

    const res = await call("POST", "/api/sandbox/v1/signup/confirm", {
      headers: fromAddress(),
      body: { token, password: PASSWORD },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      workspaceId: expect.stringMatching(/^ws_/),
      userId: expect.stringMatching(/^usr_/),
      email,
    });
    const user = await userRow(res.body.userId);
    expect(user).toMatchObject({ email, name: "Ada" });
    expect(await verifyPassword(PASSWORD, user.passwordHash)).toBe(true);
    const me = await call("GET", "/api/sandbox/v1/me", { headers: await sessionHeaders(res.body.userId) });
    expect(me.body).toMatchObject({ role: "owner", workspace: { name: "Confirmed Co" } });
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", res.body.workspaceId)
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({ action: "workspace.created", actorId: res.body.userId }),
    ]);

    const again = await call("POST", "/api/sandbox/v1/signup/confirm", {
      headers: fromAddress(),
      body: { token, password: PASSWORD },
    });
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe("SIGNUP_LINK_INVALID");
  });

  it("refuses an expired link, and a link whose address got an account meanwhile", async () => {
    const email = newEmail();
    await signUpWith(email);
    const token = tokenOf(linkIn(await waitForMail(email), `${PUBLIC_URL}/signup/confirm/`));
    await kysely()
      .updateTable("signupRequests")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("tokenHash", "=", sha256Hex(token))
      .execute();
    const expired = await call("POST", "/api/sandbox/v1/signup/confirm", {
      headers: fromAddress(),
      body: { token, password: PASSWORD },
    });
    expect(expired.status).toBe(410);
    expect(expired.body.error.message).toMatch(/expired/);

    const existing = await makeWorkspace();
    // a pending sign-up for an address that has an account by now (e.g. invited meanwhile)
    const taken = randomToken(43);
    await kysely()
      .insertInto("signupRequests")
      .values({
        id: `sup_${randomToken(26).toUpperCase()}`,
        email: existing.email,
        workspaceName: "Late",
        passwordHash: (await userRow(existing.userId)).passwordHash,
        tokenHash: sha256Hex(taken),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .execute();
    const late = await call("POST", "/api/sandbox/v1/signup/confirm", {
      headers: fromAddress(),
      body: { token: taken, password: "correct horse battery staple" },
    });
    expect(late.status).toBe(410);
    expect(late.body.error.message).toMatch(/has an account/);
    expect(await workspacesNamed("Late")).toBe(0);
  });

  it("limits sign-ups per email, whether or not it has an account", async () => {
    process.env.IDV_MAIL_LIMIT_EMAIL = "1";
    const existing = await makeWorkspace();
    const email = newEmail();
    for (const address of [email, existing.email]) {
      expect((await signUpWith(address)).status).toBe(202);
      const over = await signUpWith(address);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe("RATE_LIMITED");
    }
    await waitForMail(email);
    expect(mailsTo(email)).toHaveLength(1);
  });
});
