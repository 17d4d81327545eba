import { randomInt } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/crypto/password";
import { getDb } from "@/lib/db/client";
import { randomToken } from "@/lib/ids";
import { makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { call } from "@/lib/testing/router";

/** Each test signs up from its own address, so the per-address limit of one never meets another's. */
function fromAddress(): Record<string, string> {
  return { "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}` };
}

function newEmail(): string {
  return `signup-${randomToken(10).toLowerCase()}@example.test`;
}

afterEach(() => {
  delete process.env.IDV_SIGNUP;
  delete process.env.IDV_SIGNUP_LIMIT_IP;
});

describe("POST /v1/signup", () => {
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
    const db = getDb();
    const workspace = await db.workspace.findUniqueOrThrow({
      where: { id: res.body.workspaceId },
      include: { memberships: true, apiKeys: true },
    });
    expect(workspace.name).toBe("Acme Identity");
    expect(workspace.memberships).toEqual([
      expect.objectContaining({ userId: res.body.userId, role: "owner" }),
    ]);
    expect(workspace.apiKeys).toEqual([]);
    const user = await db.user.findUniqueOrThrow({ where: { id: res.body.userId } });
    expect(user).toMatchObject({ email, name: "Ada Lovelace" });
    expect(await verifyPassword("a long enough password", user.passwordHash)).toBe(true);
    const audit = await db.auditEvent.findMany({ where: { workspaceId: res.body.workspaceId } });
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
    expect(await getDb().workspace.count({ where: { name: "Takeover" } })).toBe(0);

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
    const memberships = await getDb().membership.findMany({ where: { userId: existing.userId } });
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
    expect(await getDb().user.count({ where: { email } })).toBe(0);
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
    expect(await getDb().user.count({ where: { email } })).toBe(0);

    const elsewhere = await call("POST", "/api/sandbox/v1/signup", {
      headers: fromAddress(),
      body: { workspaceName: "Elsewhere", email, password: "a long enough password" },
    });
    expect(elsewhere.status).toBe(201);
  });
});
