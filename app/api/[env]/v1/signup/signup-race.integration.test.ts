/**
 * Two sign-ups of one new address at the same moment (without mail, so the account is made at
 * once): both find no account, so the second one's insert meets the first one's row — a unique
 * violation (PostgreSQL 23505, Prisma's P2002 before the data layer) that must answer as any
 * unusable address does (400 on `email`), never 500, and leave one account and one workspace.
 */
import { randomInt } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { randomToken } from "@/lib/ids";
import { call } from "@/lib/testing/router";

const SMTP_URL = process.env.SMTP_URL!;

beforeEach(() => {
  delete process.env.SMTP_URL;
});
afterEach(() => {
  process.env.SMTP_URL = SMTP_URL;
});

const fromAddress = () => ({ "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}` });

describe("POST /v1/signup twice at once with one new address", () => {
  it("creates one account; the other attempt is a field error on email", async () => {
    const email = `race-${randomToken(10).toLowerCase()}@example.test`;
    const attempt = (workspaceName: string) =>
      call("POST", "/api/sandbox/v1/signup", {
        headers: fromAddress(),
        body: { workspaceName, email, password: "a long enough password" },
      });
    const answers = await Promise.all([attempt("Race one"), attempt("Race two")]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 400]);
    const refused = answers.find((a) => a.status === 400)!;
    expect(refused.body.error.code).toBe("VALIDATION_ERROR");
    expect(refused.body.error.details).toEqual([
      { path: "email", message: "cannot be used for sign-up; sign in instead, or use another email" },
    ]);
    const users = await kysely().selectFrom("users").selectAll().where("email", "=", email).execute();
    expect(users).toHaveLength(1);
    const memberships = await kysely()
      .selectFrom("memberships")
      .selectAll()
      .where("userId", "=", users[0]!.id)
      .execute();
    expect(memberships).toHaveLength(1);
  });
});
