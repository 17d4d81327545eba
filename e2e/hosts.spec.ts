/**
 * Host-based rewriting (proxy.ts) in the production build: the server is started with IDV_HOSTS
 * (playwright.config.ts), so a dedicated API host serves the REST base at its root.
 */
import { expect, test } from "@playwright/test";
import { E2E_HOSTS } from "./support/env";

const [apiHost] = Object.keys(E2E_HOSTS);

test("a dedicated API host serves the REST base at its root", async ({ request }) => {
  const response = await request.get("/v1/apps", { headers: { Host: apiHost! } });
  // served by the sandbox Apps API (not the console's 404 page): it asks for a workspace key
  expect(response.status()).toBe(401);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_API_KEY");
});

test("a dedicated API host stays inside its surface", async ({ request }) => {
  const response = await request.get("/api/production/v1/apps", { headers: { Host: apiHost! } });
  expect(response.status()).toBe(404);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe("ROUTE_NOT_FOUND");
});

test("other hosts are routed by path as usual", async ({ request }) => {
  const response = await request.get("/v1/apps");
  expect(response.status()).toBe(404);
  expect(response.headers()["content-type"]).toContain("text/html");
});
