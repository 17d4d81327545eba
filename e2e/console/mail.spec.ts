/**
 * What the service mails, end to end through the real SMTP server of the run
 * (e2e/support/global-setup.ts): forgot password → mail → reset → sign in with the new password
 * (and the used link's page), and the development mailbox page. Keyboard only where a person
 * would type; axe and 360 px screenshots on every page.
 */
import { expect, test } from "@playwright/test";
import { linkOf, mailTo } from "../support/mail";
import { checkLayouts, consoleUser, fillSignIn, formAlert } from "./support";

test("forgot password: the emailed link sets a new password, then sign in with it", async ({
  page,
}, testInfo) => {
  const user = await consoleUser("reset");
  await page.goto("/");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await checkLayouts(page, testInfo, "forgot-password");
  await page.getByLabel("Email").fill(user.email.toUpperCase());
  await page.keyboard.press("Enter");
  await expect(page.locator("main").getByRole("status")).toContainText(
    `If an account exists for ${user.email.toUpperCase()}`,
  );
  await checkLayouts(page, testInfo, "forgot-password-sent");

  const mail = await mailTo(user.email, "Reset your password");
  const link = linkOf(mail, "/reset-password/");

  // the development mailbox shows the mail with its link
  await page.goto("/dev/mailbox");
  await expect(page.getByRole("heading", { name: "Development mailbox" })).toBeVisible();
  const item = page.getByRole("article").filter({ hasText: user.email }).first();
  await expect(item.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await checkLayouts(page, testInfo, "dev-mailbox");
  await item.getByRole("link", { name: /\/reset-password\// }).click();

  await expect(page).toHaveURL(new RegExp(`${link}$`));
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(user.email);
  await checkLayouts(page, testInfo, "reset-password");
  await page.getByLabel("New password").fill("short");
  await page.keyboard.press("Enter");
  // the browser's own check stops a too-short password before the API
  await expect(page).toHaveURL(new RegExp(`${link}$`));
  await page.getByLabel("New password").fill("a brand new e2e password");
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/\?passwordReset=1$/);
  await expect(page.locator("main").getByRole("status")).toHaveText(
    "Your password was reset and every session signed out. Sign in with the new password.",
  );
  await fillSignIn(page, user.email, user.password);
  await page.keyboard.press("Enter");
  await expect(formAlert(page)).toHaveText("Email or password is incorrect.");
  await page.getByLabel("Password", { exact: true }).fill("a brand new e2e password");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/console\/sandbox\//);

  // the link worked once
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await expect(page.locator("main").getByRole("alert")).toContainText("already used");
  await checkLayouts(page, testInfo, "reset-password-used");
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute(
    "href",
    "/forgot-password",
  );
});
