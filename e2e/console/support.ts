/**
 * What the console specs share: signing in through the real sign-in page, axe, and screenshots at
 * 360 px and wide kept as test artifacts.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";
import { createWorkspace, type CreatedWorkspace } from "../support/cli";

/** A fresh workspace made with the CLI, with its owner's email and password. */
export function consoleUser(label: string): Promise<CreatedWorkspace> {
  return createWorkspace(label);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/");
  await fillSignIn(page, email, password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/console\/sandbox\//);
}

/**
 * Types the sign-in form's email and password, again until both hold: on a loaded machine the
 * page can hydrate after the first fill and reset the controlled inputs.
 */
export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  const emailField = page.getByLabel("Email");
  const passwordField = page.getByLabel("Password", { exact: true });
  await expect(async () => {
    await emailField.fill(email);
    await passwordField.fill(password);
    await expect(emailField).toHaveValue(email, { timeout: 500 });
    await expect(passwordField).toHaveValue(password, { timeout: 500 });
  }).toPass({ timeout: 10_000 });
}

/** The form's own alert (Next.js keeps a route announcer with role=alert on every page). */
export function formAlert(page: Page) {
  return page.locator("main form [role=alert]");
}

/** axe on the page as it is now: no violations. */
export async function expectAxeClean(page: Page): Promise<void> {
  // a button caught mid colour transition (say, just enabled) is not what anyone reads
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // spinners run forever: wait only for transitions and finite animations
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

/** Screenshots at 360 px and 1280 px, attached to the test, with axe at both widths. */
export async function checkLayouts(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectAxeClean(page);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(scroll, `${name} at ${width}px must not scroll sideways`).toBeLessThanOrEqual(1);
    await testInfo.attach(`${name}-${width}px`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
