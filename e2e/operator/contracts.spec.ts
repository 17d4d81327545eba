/**
 * Recording a signed contract in the back-office: an unknown app is refused on its field, a real
 * one gets the contract provider activated, which the integrator's Providers tab then shows.
 */
import { expect, test } from "@playwright/test";
import { createWorkspace, idv } from "../support/cli";
import { checkLayouts, signIn } from "../console/support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

test("back-office contracts: record a signed contract, the integrator sees the provider activated", async ({
  browser,
  page,
  request,
}, testInfo) => {
  const integrator = await createWorkspace("contracts");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(integrator.keys.sandbox),
    data: { name: "Nordic shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };

  const unique = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const email = `e2e-contracts-${unique}@example.test`;
  await idv(["operator", "create", "--email", email, "--password", `Operator-${unique}`, "--json"]);
  const operator = await (await browser.newContext()).newPage();
  await operator.goto("/");
  await operator.getByLabel("Email").fill(email);
  await operator.getByLabel("Password", { exact: true }).fill(`Operator-${unique}`);
  await operator.getByRole("button", { name: "Sign in" }).click();
  await operator.waitForURL(/\/operator\/sandbox\//);
  await operator.getByRole("link", { name: "Contracts" }).first().click();
  await expect(operator.getByRole("heading", { level: 1, name: "Contracts" })).toBeVisible();
  await checkLayouts(operator, testInfo, "operator-contracts");

  // an app that does not exist: the API's refusal lands on the Client ID field
  await operator.getByLabel("Client ID").fill("app_doesnotexist");
  await operator.getByLabel("Provider").selectOption({ label: "BankID (Sweden)" });
  await operator.getByRole("button", { name: "Record contract" }).click();
  const fieldId = await operator.getByLabel("Client ID").getAttribute("id");
  await expect(operator.locator(`#${fieldId}-error`)).toBeVisible();

  await operator.getByLabel("Client ID").fill(clientId);
  await operator.getByRole("button", { name: "Record contract" }).click();
  await expect(operator.getByText("BankID (Sweden) is activated for Nordic shop")).toBeVisible();

  // the integrator's console shows it activated
  await signIn(page, integrator.email, integrator.password);
  await page.goto(`/console/sandbox/apps/${clientId}/providers`);
  await expect(page.getByTestId("provider-se_bankid").getByText("activated", { exact: true })).toBeVisible();
});
