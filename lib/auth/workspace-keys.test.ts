import { describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { ApiError } from "../errors";
import { authenticateWorkspace, workspaceKeyPrefix } from "./workspace-keys";

/**
 * Not a database client: a lookup through it fails with a TypeError (it has no query methods), so each
 * refusal here is decided before any query. Lookups of real keys: workspace-keys.integration.test.ts.
 */
const noLookups = {} as Db;

async function rejection(
  authorization: string | null,
  env: "sandbox" | "production" = "sandbox",
): Promise<ApiError> {
  const error = await authenticateWorkspace(noLookups, authorization, env).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(apiError.code).toBe("INVALID_API_KEY");
  expect(apiError.status).toBe(401);
  expect(apiError.headers["WWW-Authenticate"]).toMatch(/^Bearer /);
  return apiError;
}

const sandboxKey = `sk_workspace_test_${"A".repeat(40)}`;
const productionKey = `sk_workspace_prod_${"b".repeat(40)}`;

describe("workspaceKeyPrefix", () => {
  it("is sk_workspace_test_ in the sandbox and sk_workspace_prod_ in production", () => {
    expect(workspaceKeyPrefix("sandbox")).toBe("sk_workspace_test_");
    expect(workspaceKeyPrefix("production")).toBe("sk_workspace_prod_");
  });
});

describe("authenticateWorkspace: refusals before any lookup", () => {
  it("refuses a missing header", async () => {
    expect((await rejection(null)).message).toMatch(/^Missing Authorization header/);
  });

  it("refuses Basic credentials as the wrong scheme", async () => {
    const basic = `Basic ${Buffer.from("app_x:cs_test_y").toString("base64")}`;
    expect((await rejection(basic)).message).toMatch(/^Invalid authorization scheme/);
  });

  it("refuses a malformed header", async () => {
    expect((await rejection(sandboxKey)).message).toMatch(/^Malformed Authorization header/);
  });

  it("refuses tokens that are not workspace keys", async () => {
    for (const token of [
      "abc",
      `sk_workspace_test_${"A".repeat(39)}`,
      `sk_workspace_live_${"A".repeat(40)}`,
      `cs_test_${"A".repeat(43)}`,
    ]) {
      expect((await rejection(`Bearer ${token}`)).message).toBe("Invalid API key");
    }
  });

  it("refuses a key of the other environment, saying which it belongs to", async () => {
    expect((await rejection(`Bearer ${productionKey}`, "sandbox")).message).toBe(
      "This API key belongs to the production environment and cannot be used against the sandbox API",
    );
    expect((await rejection(`Bearer ${sandboxKey}`, "production")).message).toBe(
      "This API key belongs to the sandbox environment and cannot be used against the production API",
    );
  });
});
