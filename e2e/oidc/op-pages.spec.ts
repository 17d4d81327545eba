/**
 * The OpenID Provider's own pages in a real browser: the provider picker (/auth without
 * `provider` → /select) and the error page (an unknown client, an unregistered redirect_uri) in
 * the hosted frame, in English and in German from the browser's Accept-Language; their status,
 * security headers and inline stylesheet (allowed by its hash), a 360 px phone without sideways
 * scrolling, and no critical axe violations. A choice on the picker goes on to the hosted page.
 */
import { createHash, randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import {
  expectNoCriticalA11yViolations,
  expectNoSidewaysScrolling,
  keepScreenshot,
  makeApp,
  PNG_1X1,
  testWithIntegrator,
} from "../hosted/support";

const test = testWithIntegrator("op pages");

/** An authorization request of the sandbox OP with PKCE (new apps require it). */
function authPath(clientId: string, redirectUri: string): string {
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid",
    state: "st-op-pages",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  });
  return `/oidc/sandbox/auth?${query.toString()}`;
}

/** The OP's pages load no script; their one stylesheet applies (the frame's column is 36rem). */
async function expectHostedFrameStyles(page: Page): Promise<void> {
  expect(await page.locator("script").count()).toBe(0);
  expect(await page.locator("main").evaluate((main) => getComputedStyle(main).maxWidth)).toBe("576px");
  expect(
    await page.locator("body > div").evaluate((frame) => getComputedStyle(frame).backgroundColor),
  ).not.toBe("rgba(0, 0, 0, 0)");
}

test("the provider picker on a 360 px phone: hosted frame, headers, axe; a choice opens the hosted page", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const app = await makeApp(request, workspace.keys.sandbox, integrator, {
    name: "OP Pages Shop",
    logo: PNG_1X1,
    providers: ["passport", "de_eid"],
  });
  const response = await page.goto(authPath(app.clientId, integrator.returnUrl));
  // /auth without provider sends the browser on to the picker
  expect(response!.request().redirectedFrom()?.url()).toContain("/oidc/sandbox/auth?");
  expect(response!.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe("/oidc/sandbox/select");
  const headers = response!.headers();
  expect(headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("style-src 'sha256-");
  expect(headers["content-security-policy"]).not.toContain("script-src");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["cache-control"]).toContain("no-store");

  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page).toHaveTitle("Sign in to OP Pages Shop");
  await expect(page.getByTestId("brand-name")).toHaveText("OP Pages Shop");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to OP Pages Shop");
  await expect(page.getByText("Choose how to prove your identity:")).toBeVisible();
  const eid = page.locator('a[data-provider="de_eid"]');
  await expect(eid).toContainText("German eID card");
  await expect(eid).toContainText("Available in: Germany");
  await expect(page.locator('a[data-provider="passport"]')).toBeVisible();
  await expectHostedFrameStyles(page);
  await expectNoSidewaysScrolling(page);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "op-picker-360-en");

  // wide: the same frame, centred, nothing cut off
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectNoSidewaysScrolling(page);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "op-picker-1280-en");

  // keyboard only: Tab reaches the choice, Enter opens it
  const choice = page.getByRole("link", { name: /German eID card/ });
  for (let i = 0; i < 10 && !(await choice.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(choice).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/verify\/ver_[0-9A-Z]+/);
  await expect(page.getByTestId("provider-heading")).toContainText("German eID card");
});

test("the error page on a 360 px phone: an unknown client is refused with 400, never redirected", async ({
  page,
  integrator,
}, testInfo) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const response = await page.goto(authPath("app_01HZZZZZZZZZZZZZZZZZZZZZZZ", integrator.returnUrl));
  expect(response!.status()).toBe(400);
  expect(response!.request().redirectedFrom()).toBeNull();
  expect(response!.headers()["location"]).toBeUndefined();
  expect(response!.headers()["x-frame-options"]).toBe("DENY");
  expect(new URL(page.url()).pathname).toBe("/oidc/sandbox/auth");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This sign-in cannot continue");
  await expect(page.locator("#error")).toHaveAttribute("data-error", "invalid_request");
  await expect(page.locator("#error")).toContainText("client_id");
  await expect(page.getByText("Go back to the application you came from")).toBeVisible();
  await expectHostedFrameStyles(page);
  await expectNoSidewaysScrolling(page);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "op-error-360-en");
});

test.describe("German from the browser's Accept-Language", () => {
  test.use({ locale: "de-DE" });

  test("the picker and the error page in German", async ({
    page,
    request,
    workspace,
    integrator,
  }, testInfo) => {
    const app = await makeApp(request, workspace.keys.sandbox, integrator, {
      name: "OP Laden",
      providers: ["passport", "de_eid"],
    });
    const picker = await page.goto(authPath(app.clientId, integrator.returnUrl));
    expect(picker!.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bei OP Laden anmelden");
    await expect(page.getByText("Wählen Sie, wie Sie Ihre Identität nachweisen:")).toBeVisible();
    await expect(page.locator('a[data-provider="de_eid"]')).toContainText("Verfügbar in: Deutschland");
    await expectHostedFrameStyles(page);
    await expectNoCriticalA11yViolations(page);
    await keepScreenshot(page, testInfo, "op-picker-de");

    // an unregistered redirect_uri: the error page, never a redirect to it
    const refused = await page.goto(authPath(app.clientId, "https://evil.example.com/cb"));
    expect(refused!.status()).toBe(400);
    expect(refused!.headers()["location"]).toBeUndefined();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Diese Anmeldung kann nicht fortgesetzt werden",
    );
    // the technical description stays in English, and says so to screen readers
    await expect(page.locator("#error")).toHaveAttribute("lang", "en");
    await expect(page.locator("#error")).toContainText("redirect_uri");
    await expectHostedFrameStyles(page);
    await expectNoCriticalA11yViolations(page);
    await keepScreenshot(page, testInfo, "op-error-de");
  });
});
