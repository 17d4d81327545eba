/**
 * The console's fit and finish around navigation (issue 29, items 13, 5 and 10), as a person sees
 * it in Chromium: a favicon on every kind of page (served, no 404); a tab title that says where you
 * are (`Webhooks · Checkout · Sandbox · Identity verification console`), the app's name joining it
 * once its query loads; API errors a signed-in person can meet worded for them, never about an
 * API key (a real 401 once the session cookie is gone, a 403 worded for API clients); the side
 * navigation sticky with its column the page's height at 1440 px and reachable by the Menu button
 * at 390 px; the Environment switch keeping the section; a sandbox toast not crossing into
 * production. axe and screenshots at 390 px and 1440 px.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { consoleUser, expectAxeClean, signIn } from "./support";

const PRODUCT = "Identity verification console";
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** axe, no sideways scroll, and a full-page screenshot at 390 px and 1440 px. */
async function checkWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    // from the top, so that the sticky navigation is where a reader of the screenshot expects it
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAxeClean(page);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(scroll, `${name} at ${width}px must not scroll sideways`).toBeLessThanOrEqual(1);
    await testInfo.attach(`${name}-${width}px`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Every icon request the page makes, and every one that failed (status ≥ 400 or no answer). */
function watchIcons(page: Page) {
  const failed: string[] = [];
  const seen: string[] = [];
  const isIcon = (url: string) => /\/(favicon\.ico|icon\.svg)(\?|$)/.test(new URL(url).pathname + "?");
  page.on("response", (response) => {
    if (!isIcon(response.url())) return;
    seen.push(response.url());
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on("requestfailed", (request) => {
    if (isIcon(request.url())) failed.push(`failed ${request.url()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error" && /favicon|icon\.svg/.test(message.text())) failed.push(message.text());
  });
  return { failed, seen };
}

/** The page's declared icons answer 200 with an image (read as the browser would). */
async function expectIconsServed(page: Page): Promise<void> {
  const hrefs = await page
    .locator('link[rel~="icon"]')
    .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(hrefs.length, `${page.url()} declares an icon`).toBeGreaterThan(0);
  for (const href of [...hrefs, new URL("/favicon.ico", page.url()).href]) {
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()["content-type"], href).toMatch(/^image\//);
  }
}

test("favicon everywhere and titles that say where you are, the app's name once it loads", async ({
  page,
  request,
}, testInfo) => {
  const icons = watchIcons(page);
  const user = await consoleUser("finish-titles");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(user.keys.sandbox),
    data: { name: "Checkout" },
  });
  expect(created.status()).toBe(201);
  const { clientId } = (await created.json()) as { clientId: string };

  // signed out: the sign-in page and a hosted page have the icon too
  await page.goto("/");
  await expectIconsServed(page);
  await page.goto("/verify/vrf_doesnotexist");
  await expectIconsServed(page);

  await signIn(page, user.email, user.password);
  await expect(page).toHaveTitle(`Dashboard · Sandbox · ${PRODUCT}`);
  await expectIconsServed(page);

  // a full load of an app page: the title waits for the app's name from the API
  await page.goto(`/console/sandbox/apps/${clientId}/webhooks`);
  await expect(page).toHaveTitle(`Webhooks · Checkout · Sandbox · ${PRODUCT}`);
  await expectIconsServed(page);

  // client navigations: the app's tabs, then a section of the side navigation
  await page
    .getByRole("navigation", { name: "App sections" })
    .getByRole("link", { name: "Providers" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/apps/${clientId}/providers$`));
  await expect(page).toHaveTitle(`Providers · Checkout · Sandbox · ${PRODUCT}`);
  await page
    .getByRole("navigation", { name: "App sections" })
    .getByRole("link", { name: "Overview" })
    .click();
  await expect(page).toHaveTitle(`Overview · Checkout · Sandbox · ${PRODUCT}`);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API requests" }).click();
  await expect(page).toHaveURL(/\/console\/sandbox\/requests$/);
  await expect(page).toHaveTitle(`API requests · Sandbox · ${PRODUCT}`);
  // and it stays so (nothing writes the metadata's title back over it)
  await page.waitForTimeout(500);
  await expect(page).toHaveTitle(`API requests · Sandbox · ${PRODUCT}`);

  await page.goto("/console/production/team");
  await expect(page).toHaveTitle(`Team · Production · ${PRODUCT}`);

  // the app's name is the one the console knows now: renamed elsewhere, a reload shows the new one
  const renamed = await request.patch(`/api/sandbox/v1/apps/${clientId}`, {
    headers: bearer(user.keys.sandbox),
    data: { name: "Checkout EU" },
  });
  expect(renamed.status()).toBe(200);
  await page.goto(`/console/sandbox/apps/${clientId}/domain`);
  await expect(page).toHaveTitle(`Domain · Checkout EU · Sandbox · ${PRODUCT}`);

  await checkWidths(page, testInfo, "titles-domain");
  expect(icons.seen.length, "the browser asked for an icon").toBeGreaterThan(0);
  expect(icons.failed).toEqual([]);
});

test("errors a signed-in person can meet speak of their session and role, never of an API key", async ({
  page,
  request,
}, testInfo) => {
  const user = await consoleUser("finish-errors");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(user.keys.sandbox),
    data: { name: "Errors Shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  await signIn(page, user.email, user.password);
  await page.goto(`/console/sandbox/apps/${clientId}/webhooks`);
  await expect(page.getByLabel("Webhook URL")).toBeVisible();

  // a 403 the API words for API clients, on a save
  await page.route(`**/api/sandbox/v1/apps/${clientId}/webhook-config`, (route) =>
    route.request().method() === "GET"
      ? route.continue()
      : route.fulfill({
          status: 403,
          json: {
            error: {
              code: "RESOURCE_FORBIDDEN",
              message: "The API key lacks the permission write",
              requestId: "req_e2e403",
            },
          },
        }),
  );
  await page.getByLabel("Webhook URL").fill("https://hooks.example.test/in");
  await page.getByRole("button", { name: "Save" }).click();
  const refusal = page.getByText(/Your role does not allow this/);
  await expect(refusal).toBeVisible();
  await expect(refusal).not.toContainText(/API key/i);
  await expect(page.locator("main")).not.toContainText(/API key/i);
  await checkWidths(page, testInfo, "error-403");
  await page.unroute(`**/api/sandbox/v1/apps/${clientId}/webhook-config`);

  // a real 401: the session cookie is gone (expired, cleared); the API answers INVALID_API_KEY
  // ("Missing Authorization header… API key"), which the console reads as the session's end
  const answers: string[] = [];
  await page.route(`**/api/sandbox/v1/apps/${clientId}/webhook-config`, async (route) => {
    const response = await route.fetch();
    if (response.status() === 401) {
      answers.push(((await response.json()) as { error: { code: string } }).error.code);
    }
    await route.fulfill({ response });
  });
  await page.context().clearCookies();
  await page.getByLabel("Webhook URL").fill("https://hooks.example.test/again");
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(/\/\?expired=1/);
  expect(answers).toContain("INVALID_API_KEY");
  await expect(page.getByText("Your session has ended. Sign in again.")).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/API key|Authorization header|Bearer/i);
  await checkWidths(page, testInfo, "error-401-sign-in");
});

test("sticky side navigation at 1440 px, the Menu at 390 px, environment switch and toasts", async ({
  page,
  request,
}, testInfo) => {
  const user = await consoleUser("finish-nav");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(user.keys.sandbox),
    data: { name: "Nav Shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  await signIn(page, user.email, user.password);
  const nav = page.getByRole("navigation", { name: "Console" });

  // --- 1440 px, a page longer than the window: the navigation stays at the top while it scrolls
  await page.setViewportSize({ width: 1440, height: 600 });
  await page.goto(`/console/sandbox/apps/${clientId}/webhooks`);
  await expect(page.getByLabel("Webhook URL")).toBeVisible();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height, "the Webhooks page is longer than the window").toBeGreaterThan(1200);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  const box = await nav.boundingBox();
  expect(box, "the navigation is shown").not.toBeNull();
  expect(Math.abs(box!.y), "the navigation stays at the top of the window").toBeLessThanOrEqual(1);
  await expect(nav.getByRole("link", { name: "Team" })).toBeInViewport();
  // its column (the white background) reaches the foot of the page
  const column = await nav.evaluate((el) => {
    const r = el.parentElement!.getBoundingClientRect();
    return {
      bottom: r.bottom + window.scrollY,
      background: getComputedStyle(el.parentElement!).backgroundColor,
    };
  });
  expect(column.bottom).toBeGreaterThanOrEqual(height - 1);
  expect(column.background).toBe("rgb(255, 255, 255)");
  await testInfo.attach("nav-scrolled-1440px", { body: await page.screenshot(), contentType: "image/png" });

  // a short page: the column still fills the window
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/console/sandbox/settings");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const shortColumn = await nav.evaluate((el) => el.parentElement!.getBoundingClientRect().bottom);
  expect(shortColumn).toBeGreaterThanOrEqual(899);

  // --- 390 px: the navigation is behind the Menu button, and works from there
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/console/sandbox/apps/${clientId}/webhooks`);
  await expect(page.getByLabel("Webhook URL")).toBeVisible();
  await expect(nav).toBeHidden();
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  await menu.click();
  await expect(nav.getByRole("link", { name: "Team" })).toBeVisible();
  await testInfo.attach("nav-menu-390px", { body: await page.screenshot(), contentType: "image/png" });
  await nav.getByRole("link", { name: "Team" }).click();
  await expect(page).toHaveURL(/\/console\/sandbox\/team$/);
  await expect(nav).toBeHidden();

  // --- the Environment switch keeps the section, with or without a record in the URL
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const [from, section, to] of [
    ["sandbox", "verifications", "production"],
    ["production", "requests", "sandbox"],
    ["sandbox", "team", "production"],
  ] as const) {
    await page.goto(`/console/${from}/${section}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.getByLabel("Environment").selectOption(to === "sandbox" ? "Sandbox" : "Production");
    await expect(page).toHaveURL(new RegExp(`/console/${to}/${section}$`));
    await expect(page.getByLabel("Environment")).toHaveValue(to);
  }
  await page.goto("/console/sandbox/verifications/vrf_notthere");
  await page.getByLabel("Environment").selectOption("Production");
  await expect(page).toHaveURL(/\/console\/production\/verifications$/);

  // an app page: the app is the sandbox's, so production shows its apps list
  await page.goto(`/console/sandbox/apps/${clientId}/webhooks`);
  await page.getByLabel("Webhook URL").fill("https://hooks.example.test/in");
  await page.getByRole("button", { name: "Save" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Webhook settings saved" });
  await expect(toast).toBeVisible();
  await page.getByLabel("Environment").selectOption("Production");
  await expect(page).toHaveURL(/\/console\/production\/apps$/);
  // the sandbox's confirmation stays in the sandbox (it would otherwise last 5 s)
  await expect(page.getByText("Webhook settings saved")).toHaveCount(0, { timeout: 1_000 });
  await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
  await expect(page).toHaveTitle(`Apps · Production · ${PRODUCT}`);
  await checkWidths(page, testInfo, "production-apps-after-switch");
});
