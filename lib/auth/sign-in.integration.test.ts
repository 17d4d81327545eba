import { afterEach, describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { countRows, likeLiteral } from "../db/kysely";
import { ApiError } from "../errors";
import { makeWorkspace } from "../testing/factories";
import { signInWithPassword } from "./sign-in";

const PASSWORD = "correct horse battery staple";

async function attempt(email: string, password: string, ip = "203.0.113.7") {
  try {
    return await signInWithPassword(kysely(), { email, password, ip });
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

afterEach(() => {
  delete process.env.IDV_SIGNIN_LIMIT_EMAIL;
  delete process.env.IDV_SIGNIN_LIMIT_IP;
});

describe("console sign-in", () => {
  it("signs in with the right password (email in any case) and records the time", async () => {
    const ws = await makeWorkspace();
    const user = await attempt(ws.email.toUpperCase(), PASSWORD);
    expect(user).toMatchObject({ id: ws.userId, email: ws.email });
    const row = await kysely()
      .selectFrom("users")
      .selectAll()
      .where("id", "=", ws.userId)
      .executeTakeFirstOrThrow();
    expect(row.lastSignInAt).not.toBeNull();
  });

  it("answers a wrong password and an unknown email with the same error", async () => {
    const ws = await makeWorkspace();
    const wrong = await attempt(ws.email, "not the password");
    const unknown = await attempt(`nobody-${Date.now()}@example.test`, PASSWORD);
    expect(wrong).toBeInstanceOf(ApiError);
    expect(unknown).toBeInstanceOf(ApiError);
    expect([(wrong as ApiError).code, (wrong as ApiError).message]).toEqual([
      (unknown as ApiError).code,
      (unknown as ApiError).message,
    ]);
    expect((wrong as ApiError).status).toBe(401);
  });

  it("locks an email after its failures, even for the right password, and a success resets the count", async () => {
    process.env.IDV_SIGNIN_LIMIT_EMAIL = "3";
    const ws = await makeWorkspace();
    for (let i = 0; i < 2; i++)
      expect(await attempt(ws.email, "wrong")).toMatchObject({ code: "INVALID_CREDENTIALS" });
    // a success before the limit clears the count
    expect(await attempt(ws.email, PASSWORD)).toMatchObject({ id: ws.userId });
    for (let i = 0; i < 3; i++)
      expect(await attempt(ws.email, "wrong")).toMatchObject({ code: "INVALID_CREDENTIALS" });
    const locked = await attempt(ws.email, PASSWORD);
    expect(locked).toMatchObject({ code: "RATE_LIMITED", status: 429 });
    expect(Number((locked as ApiError).headers["Retry-After"])).toBeGreaterThan(0);
    // other emails from elsewhere are unaffected
    const other = await makeWorkspace();
    expect(await attempt(other.email, PASSWORD, "198.51.100.1")).toMatchObject({ id: other.userId });
  });

  it("limits one source address across emails, counted in PostgreSQL", async () => {
    process.env.IDV_SIGNIN_LIMIT_IP = "4";
    const ip = `192.0.2.${Math.floor(Math.random() * 200) + 1}`;
    for (let i = 0; i < 4; i++) await attempt(`guess-${i}-${Date.now()}@example.test`, "x", ip);
    const ws = await makeWorkspace();
    expect(await attempt(ws.email, PASSWORD, ip)).toMatchObject({ code: "RATE_LIMITED" });
    const rows = await countRows(
      kysely()
        .selectFrom("rateLimits")
        .where("key", "like", `${likeLiteral("signin_ip")}%`),
    );
    expect(rows).toBeGreaterThan(0);
  });
});
