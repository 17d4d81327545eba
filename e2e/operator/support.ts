/**
 * What the back-office specs share: operators made with the CLI, a browser signed in as one on the
 * console's sign-in page, and sandbox apps made over the REST API.
 */
import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { idv } from "../support/cli";

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

export interface TOperator {
  email: string;
  password: string;
  userId: string;
  operatorKey: string;
}

/** A new operator (`idv operator create`) whose email starts with `emailPrefix`. */
export async function makeOperator(emailPrefix: string): Promise<TOperator> {
  const unique = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const email = `${emailPrefix}-${unique}@example.test`;
  const password = `Operator-password-${unique}`;
  const out = JSON.parse(
    (await idv(["operator", "create", "--email", email, "--password", password, "--json"])).trim(),
  ) as { userId: string; operatorKey: string };
  return { email, password, userId: out.userId, operatorKey: out.operatorKey };
}

/** A page in a browser context of its own, signed in as the operator, on the activation queue. */
export async function operatorPage(
  browser: Browser,
  operator: { email: string; password: string },
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/");
  await page.getByLabel("Email").fill(operator.email);
  await page.getByLabel("Password", { exact: true }).fill(operator.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/operator\/sandbox\/activations/);
  return page;
}

/** A sandbox app of the workspace whose key is `key`, with its client credentials as Basic auth. */
export async function createApp(
  request: APIRequestContext,
  key: string,
  name: string,
): Promise<{ clientId: string; basic: string }> {
  const res = await request.post("/api/sandbox/v1/apps", { headers: bearer(key), data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const app = (await res.json()) as { clientId: string; clientSecret: string };
  return {
    clientId: app.clientId,
    basic: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
  };
}

/**
 * Connects `providerId` in production through the Operator API (PUT, an oidc upstream nothing
 * answers): production sessions of a provider without a connection are refused (issue 24), and
 * these specs test something other than the upstream. Keeps an existing connection.
 */
export async function connectProductionProvider(
  request: APIRequestContext,
  operatorKey: string,
  providerId: string,
): Promise<void> {
  const path = `/api/production/v1/operator/connections/${providerId}`;
  const current = await request.get(path, { headers: bearer(operatorKey) });
  expect(current.status(), await current.text()).toBe(200);
  if (((await current.json()) as { state: string }).state !== "not_connected") return;
  const res = await request.put(path, {
    headers: bearer(operatorKey),
    data: {
      adapter: "oidc",
      enabled: true,
      settings: {
        issuer: "http://127.0.0.1:9/unreachable-upstream",
        clientId: "e2e-broker",
        clientSecret: "e2e-broker-secret",
        allowInsecureRequests: true,
      },
    },
  });
  expect([200, 201], await res.text()).toContain(res.status());
}
