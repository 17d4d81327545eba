/**
 * The console's, back-office's and sign-in pages' Content-Security-Policy (issue 23, item 10):
 * every page answers with a fresh script nonce (which Next.js put on its scripts), 'strict-dynamic',
 * `frame-ancestors 'none'`, `object-src 'none'`, `base-uri 'none'` and `X-Frame-Options: DENY`; no
 * page can be framed; and the main pages — the workflow editor (React Flow), the dashboard
 * (recharts), the lists, the back-office — run without a single CSP violation.
 */
import { expect, test, type APIRequestContext, type Page, type Response } from "@playwright/test";
import { makeOperator, operatorPage } from "../operator/support";
import { consoleUser, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Records CSP violations (the DOM event, and Chromium's console report) from the page's first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) reported.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => {
    if (/Content Security Policy/i.test(error.message)) reported.push(`error: ${error.message}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return async () => [
    ...reported,
    ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
  ];
}

/** The policy of a page's answer, checked, and its nonce. */
async function expectPagePolicy(response: Response | null, what: string): Promise<string> {
  expect(response, what).not.toBeNull();
  const headers = response!.headers();
  const csp = headers["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, `${what}: ${csp}`).toBeTruthy();
  expect(csp, what).toContain("'strict-dynamic'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).toContain("base-uri 'none'");
  expect(headers["x-frame-options"], what).toBe("DENY");
  // Next.js nonced its own scripts with the same value
  expect(await response!.text(), what).toContain(`nonce="${nonce}"`);
  return nonce!;
}

async function createApp(request: APIRequestContext, key: string): Promise<string> {
  const res = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(key),
    data: { name: "CSP shop" },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { clientId: string }).clientId;
}

test("sign-in, sign-up and invitation pages carry the nonce policy and cannot be framed", async ({
  page,
  baseURL,
}) => {
  const nonces = new Set<string>();
  for (const path of ["/", "/signup", "/invite/not-a-real-token"]) {
    nonces.add(await expectPagePolicy(await page.goto(path), path));
  }
  expect(nonces.size).toBe(3);

  // a page framing the sign-in page (here one of the same origin, which frame-ancestors 'none'
  // refuses as well; the 404 page has no policy of its own to stop the frame) gets nothing
  const seen = await watchViolations(page);
  await page.goto("/no-such-page");
  const signInUrl = new URL("/", baseURL).href;
  const answered = page.waitForResponse((r) => r.url() === signInUrl);
  await page.evaluate((src) => {
    const frame = document.createElement("iframe");
    frame.src = src;
    document.body.append(frame);
  }, signInUrl);
  expect((await answered).status()).toBe(200);
  await expect.poll(async () => (await seen()).some((v) => /frame-ancestors/.test(v))).toBe(true);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(await frame?.getByLabel("Email").count()).toBe(0);
});

test("the console's and back-office's main pages run without a CSP violation", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const user = await consoleUser("csp");
  const clientId = await createApp(request, user.keys.sandbox);
  const workflows = await request.get(`/api/sandbox/v1/apps/${clientId}/workflows`, {
    headers: bearer(user.keys.sandbox),
  });
  expect(workflows.status()).toBe(200);
  const workflowId = ((await workflows.json()) as { workflowId: string }[])[0]!.workflowId;

  const violations = await watchViolations(page);
  await signIn(page, user.email, user.password);
  const pages: [string, RegExp | string][] = [
    ["/console/sandbox/dashboard", /./],
    ["/console/sandbox/apps", /./],
    [`/console/sandbox/apps/${clientId}`, /./],
    [`/console/sandbox/apps/${clientId}/providers`, /./],
    [`/console/sandbox/apps/${clientId}/webhooks`, /./],
    [`/console/sandbox/apps/${clientId}/workflows`, /./],
    [`/console/sandbox/apps/${clientId}/workflows/${workflowId}`, /./],
    ["/console/sandbox/verifications", /./],
    ["/console/sandbox/requests", /./],
    ["/console/sandbox/audit-log", /./],
    ["/console/sandbox/team", /./],
    ["/console/sandbox/api-keys", /./],
    ["/console/sandbox/settings", /./],
  ];
  for (const [path, heading] of pages) {
    await expectPagePolicy(await page.goto(path), path);
    await expect(page.getByRole("heading", { level: 1 }).first(), path).toContainText(heading);
    await page.waitForLoadState("networkidle");
  }
  // the workflow editor's canvas (React Flow: inline styles, SVG) rendered
  await page.goto(`/console/sandbox/apps/${clientId}/workflows/${workflowId}`);
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  expect(await violations()).toEqual([]);

  const operator = await makeOperator("csp");
  const back = await operatorPage(browser, operator);
  const backViolations = await watchViolations(back);
  for (const path of [
    "/operator/sandbox/activations",
    "/operator/sandbox/workspaces",
    "/operator/sandbox/production-tests",
    "/operator/sandbox/custom-domains",
    "/operator/sandbox/audit-log",
    "/operator/sandbox/contracts",
  ]) {
    await expectPagePolicy(await back.goto(path), path);
    await expect(back.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
    await back.waitForLoadState("networkidle");
  }
  expect(await backViolations()).toEqual([]);
});
