import { expect, test } from "@playwright/test";

test("the console home page renders in the browser", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Identity verification broker");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Identity verification broker");
});
