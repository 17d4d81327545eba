/**
 * The `idv` CLI as an operator runs it: `node bin/idv.mjs …` in a child process against the
 * migrated test database, checked through its output, its exit code, the database and the
 * REST API. Each spawn costs about a second, so independent spawns run in parallel.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authenticateOperator } from "../auth/operator-keys";
import { kysely } from "../db/client";
import { countRows } from "../db/kysely";
import { makeWorkspace } from "../testing/factories";
import { bearer, call } from "../testing/router";

const root = path.resolve(import.meta.dirname, "..", "..");
const PASSWORD = "correct horse battery staple";

/** The user whose `column` is `value`. */
const userWhere = (column: "id" | "email", value: string) =>
  kysely().selectFrom("users").selectAll().where(column, "=", value).executeTakeFirstOrThrow();

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function idv(...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "bin", "idv.mjs"), ...args],
      {
        cwd: root,
        timeout: 25_000,
        env: {
          ...process.env,
          DATABASE_URL: process.env.DATABASE_URL,
          IDV_MASTER_KEY: process.env.IDV_MASTER_KEY ?? "test-master-key-0123456789abcdef",
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** stdout must be exactly one JSON object (one line), nothing else. */
function onlyJson(stdout: string): Record<string, unknown> {
  const lines = stdout.split("\n").filter((line) => line.trim() !== "");
  expect(lines).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(typeof parsed).toBe("object");
  return parsed;
}

describe("idv workspace create", () => {
  it("prints the workspace, its owner and one working key per environment as JSON", async () => {
    const email = uniqueEmail("owner");
    const res = await idv(
      "workspace",
      "create",
      "--name",
      "Acme CLI",
      "--email",
      email,
      "--password",
      PASSWORD,
      "--json",
    );
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain(PASSWORD);
    const out = onlyJson(res.stdout);
    expect(Object.keys(out).sort()).toEqual(["keys", "userId", "workspaceId"]);
    const keys = out.keys as { sandbox: string; production: string };
    expect(Object.keys(keys).sort()).toEqual(["production", "sandbox"]);
    expect(out.workspaceId).toMatch(/^ws_[0-9A-Z]{26}$/);
    expect(out.userId).toMatch(/^usr_[0-9A-Z]{26}$/);
    expect(keys.sandbox).toMatch(/^sk_workspace_test_[A-Za-z0-9]{40}$/);
    expect(keys.production).toMatch(/^sk_workspace_prod_[A-Za-z0-9]{40}$/);

    const sandbox = await call("GET", "/api/sandbox/v1/workspace", { headers: bearer(keys.sandbox) });
    expect(sandbox.status).toBe(200);
    expect(sandbox.body).toMatchObject({
      workspaceId: out.workspaceId,
      name: "Acme CLI",
      environment: "sandbox",
    });

    const wrongEnv = await call("GET", "/api/sandbox/v1/workspace", { headers: bearer(keys.production) });
    expect(wrongEnv.status).toBe(401);
    expect(wrongEnv.body.error.code).toBe("INVALID_API_KEY");

    const production = await call("GET", "/api/production/v1/workspace", {
      headers: bearer(keys.production),
    });
    expect(production.status).toBe(200);
    expect(production.body.workspaceId).toBe(out.workspaceId);

    const user = await userWhere("id", out.userId as string);
    expect(user.email).toBe(email);
    expect(user.isOperator).toBe(false);
  });
});

describe("idv operator create", () => {
  it("creates an operator user with a working operator key", async () => {
    const email = uniqueEmail("operator");
    const res = await idv("operator", "create", "--email", email, "--password", PASSWORD, "--json");
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const out = onlyJson(res.stdout);
    expect(Object.keys(out).sort()).toEqual(["operatorKey", "userId"]);
    expect(out.operatorKey).toMatch(/^sk_operator_[A-Za-z0-9]{40}$/);

    const db = kysely();
    const user = await userWhere("email", email);
    expect(user.id).toBe(out.userId);
    expect(user.isOperator).toBe(true);
    const auth = await authenticateOperator(db, `Bearer ${out.operatorKey as string}`);
    expect(auth.userId).toBe(out.userId);
    const audit = await db
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", user.id)
      .where("action", "=", "operator.created")
      .executeTakeFirst();
    expect(audit).toBeDefined();
  });

  it("upgrades an existing user only when the password matches, and never prints it", async () => {
    const ws = await makeWorkspace("Upgrade me");
    const wrong = await idv("operator", "create", "--email", ws.email, "--password", "not the right one");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/password does not match/);
    expect(wrong.stdout).toBe("");
    expect((await userWhere("id", ws.userId)).isOperator).toBe(false);

    const right = await idv("operator", "create", "--email", ws.email, "--password", PASSWORD);
    expect(right.code).toBe(0);
    expect(right.stdout).toContain(ws.userId);
    expect(right.stdout).toMatch(/sk_operator_[A-Za-z0-9]{40}/);
    expect(right.stdout + right.stderr).not.toContain(PASSWORD);
    expect((await userWhere("id", ws.userId)).isOperator).toBe(true);
  });
});

describe("idv keys create", () => {
  it("issues a named key for one environment of an existing workspace and refuses an unknown one", async () => {
    const ws = await makeWorkspace("Keys");
    const [created, unknown] = await Promise.all([
      idv(
        "keys",
        "create",
        "--workspace",
        ws.workspaceId,
        "--env",
        "production",
        "--name",
        "CI deploy",
        "--json",
      ),
      idv("keys", "create", "--workspace", "ws_01M80000000000000000000000", "--env", "sandbox", "--json"),
    ]);
    expect(created.code).toBe(0);
    const out = onlyJson(created.stdout);
    expect(Object.keys(out).sort()).toEqual(["environment", "key", "keyId", "workspaceId"]);
    expect(out).toMatchObject({ workspaceId: ws.workspaceId, environment: "production" });
    expect(out.key).toMatch(/^sk_workspace_prod_[A-Za-z0-9]{40}$/);
    const res = await call("GET", "/api/production/v1/workspace", { headers: bearer(out.key as string) });
    expect(res.status).toBe(200);
    expect(res.body.workspaceId).toBe(ws.workspaceId);
    const row = await kysely()
      .selectFrom("apiKeys")
      .selectAll()
      .where("id", "=", out.keyId as string)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("CI deploy");

    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    const error = JSON.parse(unknown.stderr) as { error: { code: string; message: string } };
    expect(error.error.code).toBe("RESOURCE_NOT_FOUND");
    expect(error.error.message).toContain("ws_01M80000000000000000000000");
  });
});

describe("input validation", () => {
  it("exits 2 with a one-line message naming the flag, and writes nothing", async () => {
    const email = uniqueEmail("invalid");
    const [missingName, badEmail, badEnv, shortPassword] = await Promise.all([
      idv("workspace", "create", "--email", email, "--password", PASSWORD),
      idv("operator", "create", "--email", "not-an-email", "--password", PASSWORD),
      idv("keys", "create", "--workspace", "ws_01M80000000000000000000000", "--env", "staging"),
      idv("workspace", "create", "--name", "Short", "--email", email, "--password", "7chars!", "--json"),
    ]);
    for (const res of [missingName, badEmail, badEnv, shortPassword]) {
      expect(res.code).toBe(2);
      expect(res.stdout).toBe("");
      expect(res.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(missingName.stderr).toMatch(/--name is required/);
    expect(badEmail.stderr).toMatch(/--email must be a valid email address/);
    expect(badEnv.stderr).toMatch(/--env must be sandbox or production/);
    expect(JSON.parse(shortPassword.stderr)).toEqual({
      error: { code: "VALIDATION_ERROR", message: "--password must be at least 8 characters" },
    });
    expect(shortPassword.stderr).not.toContain("7chars!");
    expect(await countRows(kysely().selectFrom("users").where("email", "=", email))).toBe(0);
  });

  it("refuses a bad environment variable before doing anything, naming it (CONFIG_INVALID)", async () => {
    const email = uniqueEmail("config");
    const saved = process.env.IDV_DNS_TRIES;
    process.env.IDV_DNS_TRIES = "two"; // inherited by the child
    let res: CliResult;
    try {
      res = await idv(
        "workspace",
        "create",
        "--name",
        "Config",
        "--email",
        email,
        "--password",
        PASSWORD,
        "--json",
      );
    } finally {
      if (saved === undefined) delete process.env.IDV_DNS_TRIES;
      else process.env.IDV_DNS_TRIES = saved;
    }
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(JSON.parse(res.stderr)).toEqual({
      error: { code: "CONFIG_INVALID", message: 'IDV_DNS_TRIES must be a positive integer, got "two"' },
    });
    expect(await countRows(kysely().selectFrom("users").where("email", "=", email))).toBe(0);
  });
});

describe("idv db migrate and help", () => {
  it("reports that the migrated test database has nothing pending", async () => {
    const res = await idv("db", "migrate");
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/No pending migrations/);
    // the database is named, its credentials are not
    expect(res.stdout).toContain(new URL(process.env.DATABASE_URL!).pathname);
    expect(res.stdout).not.toContain(process.env.DATABASE_URL!);
  });

  it("prints usage for --help", async () => {
    const res = await idv("--help");
    expect(res.code).toBe(0);
    for (const command of ["serve", "workspace create", "operator create", "keys create", "db migrate"]) {
      expect(res.stdout).toContain(command);
    }
  });
});
