import { expect, test } from "@playwright/test";

test("the console's front door is the sign-in page", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Identity verification console/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to the console");
  await expect(page.getByLabel("Email")).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
});
