/**
 * Issue 29, item 1: a sandbox hosted page offers "Open the simulator" on every device (its QR code
 * points at this service's own address, which a phone may not reach), and its end page leads the
 * workspace member who started the test back to the session in the console — behind the
 * console's sign-in, so an end-user learns nothing from it. Production pages keep the phone-only
 * same-device link and have no console link. Screenshots at 390 px and 1440 px, axe, keyboard.
 */
import { expect, type Page } from "@playwright/test";
import { connectProductionProvider, makeOperator } from "../operator/support";
import { E2E_ENV } from "../support/env";
import {
  expectNoCriticalA11yViolations,
  expectNoSidewaysScrolling,
  hostedPath,
  keepScreenshot,
  makeApp,
  startSession,
  testWithIntegrator,
} from "./support";

const test = testWithIntegrator("simulator link");

/** The data-testid of each element Tab reaches, in order (`count` presses). */
async function tabOrder(page: Page, count: number): Promise<string[]> {
  const order: string[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press("Tab");
    order.push((await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))) ?? "");
  }
  return order;
}

test("desktop sandbox QR page: the simulator link works, the end page links back to the console session", async ({
  page,
  browser,
  request,
  workspace,
  integrator,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = await makeApp(request, workspace.keys.sandbox, integrator, {
    name: "Simulator Shop",
    providers: ["passport"],
    redirect: false,
  });
  const { verificationId } = await startSession(request, app, { providerId: "passport", locale: "en" });
  await page.goto(hostedPath(verificationId));
  await expect(page.getByTestId("qr-code")).toBeVisible();
  const link = page.getByRole("link", { name: "Open the simulator" });
  await expect(link).toBeVisible();
  await expect(page.getByTestId("same-device")).toHaveCount(0);
  await expect(link).toHaveAttribute(
    "href",
    `${E2E_ENV.PUBLIC_URL}/sandbox/verify/${verificationId}?flow=qr`,
  );
  await expect(page.getByText("Sandbox: no phone needed.")).toBeVisible();
  await expectNoSidewaysScrolling(page);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "sandbox-qr-1440");

  // keyboard: Tab reaches the simulator link before Cancel, and Enter opens it in a new tab
  const order = await tabOrder(page, 8);
  expect(order).toContain("simulator-link");
  expect(order.indexOf("simulator-link")).toBeLessThan(order.indexOf("cancel"));
  await link.focus();
  const opened = page.context().waitForEvent("page");
  await page.keyboard.press("Enter");
  const simulator = await opened;
  await simulator.waitForLoadState();
  await expect(simulator).toHaveURL(new RegExp(`/sandbox/verify/${verificationId}\\?flow=qr$`));
  await expect(simulator.getByRole("heading", { level: 1 })).toHaveText("The phone");
  await simulator.getByTestId("sim-approve").click();
  await expect(simulator.getByTestId("sim-done")).toBeVisible();
  await simulator.close();

  // the hosted page follows by itself to its end page, which links to the session in the console
  await expect(page.getByTestId("final")).toHaveAttribute("data-status", "completed", { timeout: 15_000 });
  const back = page.getByRole("link", { name: "Back to this verification in the console" });
  await expect(back).toBeVisible();
  // through the console's sign-in page, with the session's console page as where to land
  const consolePath = `/console/sandbox/verifications/${verificationId}`;
  const href = `${E2E_ENV.PUBLIC_URL}/?callbackUrl=${encodeURIComponent(consolePath)}`;
  await expect(back).toHaveAttribute("href", href);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "sandbox-final-1440");

  // an end-user who is not signed in gets the console's sign-in, nothing of the session
  const stranger = await browser.newContext({ baseURL: E2E_ENV.PUBLIC_URL });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(href);
  await expect(strangerPage.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(strangerPage.getByText("Simulator Shop")).toHaveCount(0);
  await expect(strangerPage.getByText("Passport")).toHaveCount(0);
  await expect(strangerPage.getByText(verificationId)).toHaveCount(0);
  // the member who started it signs in and lands on the session
  await strangerPage.getByLabel("Email").fill(workspace.email);
  await strangerPage.getByLabel("Password", { exact: true }).fill(workspace.password);
  await strangerPage.getByRole("button", { name: "Sign in" }).click();
  await strangerPage.waitForURL(`${E2E_ENV.PUBLIC_URL}${consolePath}`);
  await expect(strangerPage.getByText(verificationId).first()).toBeVisible();
  // already signed in (the usual case: the test was started from the console): straight there
  await strangerPage.goto(href);
  await strangerPage.waitForURL(`${E2E_ENV.PUBLIC_URL}${consolePath}`);
  await expect(strangerPage.getByText(verificationId).first()).toBeVisible();
  await keepScreenshot(strangerPage, testInfo, "console-session-1440");
  await stranger.close();
});

test("phone-width sandbox QR page: the simulator link, no sideways scrolling", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const app = await makeApp(request, workspace.keys.sandbox, integrator, { providers: ["passport"] });
  const { verificationId } = await startSession(request, app, { providerId: "passport", locale: "en" });
  await page.goto(hostedPath(verificationId));
  await expect(page.getByRole("link", { name: "Open the simulator" })).toBeVisible();
  await expect(page.getByTestId("same-device")).toHaveCount(0);
  await expectNoSidewaysScrolling(page);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "sandbox-qr-390");
  // cancelled: the end page has the console link too, at phone width
  await page.getByTestId("cancel").click();
  await expect(page.getByTestId("final")).toHaveAttribute("data-status", "cancelled");
  await expect(page.getByTestId("console-link")).toBeVisible();
  await expectNoSidewaysScrolling(page);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "sandbox-final-390");
});

test("production pages unchanged: no simulator link, no console link on the end page", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  test.setTimeout(90_000);
  // a production session needs a connected provider (issue 24); its adapter (OpenID Connect)
  // makes it a redirect flow: the QR branch's production side (same-device link, phones only)
  // is the code it was before issue 29
  await connectProductionProvider(request, (await makeOperator("simulator-link")).operatorKey, "passport");
  const app = await makeApp(request, workspace.keys.production, integrator, {
    providers: ["passport"],
    env: "production",
    redirect: false,
  });
  const { verificationId } = await startSession(
    request,
    app,
    { providerId: "passport", locale: "en" },
    "production",
  );
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(hostedPath(verificationId));
    await expect(page.getByTestId("continue")).toBeVisible();
    await expect(page.getByTestId("simulator-link")).toHaveCount(0);
    await expect(page.getByText("simulator")).toHaveCount(0);
  }
  await page.getByTestId("cancel").click();
  await expect(page.getByTestId("final")).toHaveAttribute("data-status", "cancelled");
  await expect(page.getByTestId("console-link")).toHaveCount(0);
  await expect(page.getByText("console")).toHaveCount(0);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "production-final-390");
});
