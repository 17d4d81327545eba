/**
 * What the hosted-page specs share: an integrator (a node:http server on 127.0.0.1 that is both the
 * redirect target and the webhook receiver), a `test` with a workspace and an integrator per
 * worker, apps and sessions made over the real REST API, axe, the phone-width check, and
 * screenshots kept as test artifacts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { EVENT_TYPES } from "../../lib/webhooks/event-types";
import { createWorkspace, type CreatedWorkspace } from "../support/cli";

/** A 1×1 PNG as a data URL: an app logo. */
export const PNG_1X1 =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

export interface TIntegrator {
  base: string;
  returnUrl: string;
  events: {
    event: string;
    data: { verificationId: string; event?: { metadata?: Record<string, unknown> } };
  }[];
  close(): Promise<void>;
}

export async function startIntegrator(): Promise<TIntegrator> {
  const events: TIntegrator["events"] = [];
  const server = http.createServer((req, res) => {
    if (req.method === "POST") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        try {
          events.push(JSON.parse(body) as TIntegrator["events"][number]);
        } catch {
          // not an event
        }
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end('<!doctype html><html lang="en"><title>Integrator</title><h1>Back at the integrator</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    returnUrl: `${base}/return`,
    events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Playwright's `test` with two worker-scoped fixtures: a workspace made through the CLI (named
 * "`label` worker `n`") and a running integrator.
 */
export function testWithIntegrator(label: string) {
  return base.extend<object, { workspace: CreatedWorkspace; integrator: TIntegrator }>({
    workspace: [
      async ({}, use, workerInfo) => use(await createWorkspace(`${label} worker ${workerInfo.workerIndex}`)),
      { scope: "worker", timeout: 90_000 },
    ],
    integrator: [
      async ({}, use) => {
        const integrator = await startIntegrator();
        await use(integrator);
        await integrator.close();
      },
      { scope: "worker" },
    ],
  });
}

interface TRequirement {
  id: string;
  type: string;
  example?: string;
  options?: { value: string }[];
}

interface TListedProvider {
  id: string;
  status: string;
  activation: { requirements: TRequirement[] };
}

function formFor(requirements: TRequirement[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const r of requirements) {
    if (r.type === "info") continue;
    if (r.type === "email") values[r.id] = "e2e@example.test";
    else if (r.type === "url") values[r.id] = "https://shop.example.test/privacy";
    else if (r.type === "select") values[r.id] = r.options?.[0]?.value;
    else if (r.type === "checkbox") values[r.id] = r.options ? [r.options[0]!.value] : true;
    else values[r.id] = r.example ?? "E2E Shop";
  }
  return values;
}

export interface TE2eApp {
  clientId: string;
  basic: string;
}

/** An app with the given providers activated, the integrator's redirect target and webhook. */
export async function makeApp(
  request: APIRequestContext,
  key: string,
  integrator: TIntegrator,
  options: {
    name?: string;
    logo?: string;
    providers: string[];
    demo?: boolean;
    env?: "sandbox" | "production";
    redirect?: boolean;
    /** activation form values of providers the app's listing does not show yet */
    forms?: Record<string, Record<string, unknown>>;
  },
): Promise<TE2eApp> {
  const env = options.env ?? "sandbox";
  const auth = { Authorization: `Bearer ${key}` };
  const created = await request.post(`/api/${env}/v1/apps`, {
    headers: auth,
    data: { name: options.name ?? "Hosted E2E" },
  });
  expect(created.status()).toBe(201);
  const app = (await created.json()) as { clientId: string; clientSecret: string };
  const patched = await request.patch(`/api/${env}/v1/apps/${app.clientId}`, {
    headers: auth,
    data: {
      ...(options.logo ? { logo: options.logo } : {}),
      redirectUris: options.redirect === false ? [] : [integrator.returnUrl],
      // production webhooks must be https: the production specs do without
      ...(env === "sandbox"
        ? { webhookConfig: { url: `${integrator.base}/hooks`, enabled: true, events: EVENT_TYPES } }
        : {}),
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  // the starter workflow's provider (passport) is active already; registration providers get
  // their form filled from the requirements the API lists
  const listed = await request.get(`/api/${env}/v1/apps/${app.clientId}/providers?include=activation`, {
    headers: auth,
  });
  const catalog = (await listed.json()) as TListedProvider[];
  const wanted = options.providers.filter((id) => catalog.find((p) => p.id === id)?.status !== "activated");
  if (wanted.length > 0) {
    const activation = await request.post(`/api/${env}/v1/apps/${app.clientId}/activation`, {
      headers: auth,
      data: {
        providers: Object.fromEntries(
          wanted.map((id) => [
            id,
            options.forms?.[id] ?? formFor(catalog.find((p) => p.id === id)?.activation.requirements ?? []),
          ]),
        ),
        ...(options.demo ? { demo: true } : {}),
      },
    });
    expect(activation.status(), await activation.text()).toBeLessThan(300);
  }
  await expect
    .poll(
      async () => {
        const listed = await request.get(`/api/${env}/v1/apps/${app.clientId}/providers?include=activation`, {
          headers: auth,
        });
        const providers = (await listed.json()) as { id: string; status: string }[];
        return options.providers.every((id) => providers.find((p) => p.id === id)?.status === "activated");
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return {
    clientId: app.clientId,
    basic: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
  };
}

export async function startSession(
  request: APIRequestContext,
  app: TE2eApp,
  body: Record<string, unknown>,
  env: "sandbox" | "production" = "sandbox",
): Promise<{ verificationId: string; url: string }> {
  const response = await request.post(`/api/${env}/v1/verifications`, {
    headers: { Authorization: app.basic },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(201);
  const created = (await response.json()) as { verificationId: string; url: string };
  expect(created.url).toContain(`/verify/${created.verificationId}`);
  return created;
}

/** The hosted page's path (the session's url names PUBLIC_URL's host; the specs use baseURL). */
export const hostedPath = (id: string) => `/verify/${id}`;

export async function expectNoCriticalA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const critical = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  expect(critical.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

/** The page does not scroll sideways at the current viewport (360 px phone or wide). */
export async function expectNoSidewaysScrolling(page: Page): Promise<void> {
  const { scroll, viewport } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(viewport);
}

export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

/** The webhook event types the integrator received for one session, once `last` has arrived. */
export async function eventsOf(
  integrator: TIntegrator,
  verificationId: string,
  last: string,
): Promise<string[]> {
  await expect
    .poll(
      () => integrator.events.filter((e) => e.data.verificationId === verificationId).map((e) => e.event),
      {
        timeout: 15_000,
      },
    )
    .toContain(last);
  return integrator.events.filter((e) => e.data.verificationId === verificationId).map((e) => e.event);
}

export function returnedQuery(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}
