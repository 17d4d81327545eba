/**
 * Issue 29, item 11: the first-run checklist on the Dashboard of a new workspace. Every step is
 * ticked from the workspace's real state (GET /v1/workspace/checklist), links to where it is done,
 * and the checklist can be dismissed (remembered in this browser per workspace). Screenshots at
 * 390 px and 1440 px, axe, keyboard only for the first step.
 */
import { expect, type Page, type TestInfo } from "@playwright/test";
import { test } from "@playwright/test";
import { consoleUser, expectAxeClean, signIn } from "./support";

const STEPS = ["app", "test_verification", "webhook", "teammate", "production"];

/** axe, no sideways scrolling and a screenshot at 390 px and 1440 px. */
async function checkWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByTestId("first-run-checklist")).toBeVisible();
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

async function ticked(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const id of STEPS) {
    if ((await page.getByTestId(`checklist-step-${id}`).getAttribute("data-done")) === "true") out.push(id);
  }
  return out;
}

test("a new workspace: nothing ticked; an app and a sandbox verification tick their steps; dismissed stays dismissed", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await consoleUser("first-run");
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, user.email, user.password);
  await page.goto("/console/sandbox/dashboard");
  const checklist = page.getByRole("region", { name: "Get started" });
  await expect(checklist).toBeVisible();
  await expect(page.getByTestId("checklist-progress")).toHaveText("0 of 5 steps done");
  expect(await ticked(page)).toEqual([]);
  await expect(checklist.getByRole("listitem")).toHaveText([
    /^Create an app/,
    /^Run a test verification/,
    /^Set a webhook/,
    /^Invite a teammate/,
    /^Request production/,
  ]);
  // each step links to where it is done
  await expect(checklist.getByRole("link", { name: /Create an app/ })).toHaveAttribute(
    "href",
    "/console/sandbox/apps",
  );
  await expect(checklist.getByRole("link", { name: /Invite a teammate/ })).toHaveAttribute(
    "href",
    "/console/sandbox/team",
  );
  await expect(checklist.getByRole("link", { name: /Request production/ })).toHaveAttribute(
    "href",
    "/console/production/apps",
  );
  await checkWidths(page, testInfo, "checklist-new");

  // keyboard only: Tab to the first step's link, Enter goes to Apps
  const first = checklist.getByRole("link", { name: /Create an app/ });
  for (let i = 0; i < 60 && !(await first.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(first).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/console\/sandbox\/apps$/);

  // create an app, then run a test verification from its page
  await page.getByRole("button", { name: "Create app" }).first().click();
  await page.getByLabel("App name").fill("First shop");
  await page.getByRole("button", { name: "Create app" }).last().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "First shop is ready" })).toBeVisible();
  await dialog.getByRole("link", { name: "Open app" }).click();
  await expect(page.getByRole("heading", { name: "First shop" })).toBeVisible();
  const popup = page.context().waitForEvent("page");
  await page.getByRole("button", { name: "Start a test verification" }).click();
  await (await popup).close();
  await expect(page.getByRole("status").filter({ hasText: "Started" })).toBeVisible();

  await page.goto("/console/sandbox/dashboard");
  await expect(page.getByTestId("checklist-progress")).toHaveText("2 of 5 steps done");
  expect(await ticked(page)).toEqual(["app", "test_verification"]);
  // a done step is text, not a link; the next ones link to the app
  await expect(checklist.getByRole("link", { name: /Create an app/ })).toHaveCount(0);
  await expect(checklist.getByText("Create an app (done)")).toBeAttached();
  await expect(checklist.getByRole("link", { name: /Set a webhook/ })).toHaveAttribute(
    "href",
    /^\/console\/sandbox\/apps\/app_[0-9A-Za-z]+\/webhooks$/,
  );
  await checkWidths(page, testInfo, "checklist-two-done");

  // the same workspace-wide state in production
  await page.goto("/console/production/dashboard");
  await expect(page.getByTestId("checklist-progress")).toHaveText("2 of 5 steps done");

  // dismissed: gone, and still gone after a reload
  await page.getByRole("button", { name: "Dismiss the checklist" }).click();
  await expect(page.getByTestId("first-run-checklist")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await page.goto("/console/sandbox/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByTestId("first-run-checklist")).toHaveCount(0);
});
