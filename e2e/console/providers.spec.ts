/**
 * The Providers tab as an integrator meets it in the sandbox: the whole catalog (not only the
 * starter passport), filters, a direct provider activated in one click and switched off, a
 * registration form generated from the requirements that the API refuses on the right field,
 * then accepted; an operator (Operator API) rejects it with a reason the console shows, the form
 * reopens with what was sent, and after approval the provider is activated; a contract provider
 * demo-activated live; two providers activated in one submission with remembered company
 * information. axe and 360 px on the page.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { idv } from "../support/cli";
import { checkLayouts, consoleUser, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function ticketOf(request: APIRequestContext, key: string, clientId: string, providerId: string) {
  const res = await request.get(`/api/sandbox/v1/apps/${clientId}/providers?include=activation`, {
    headers: bearer(key),
  });
  expect(res.status()).toBe(200);
  const entries = (await res.json()) as { id: string; activation: { id?: string } }[];
  const id = entries.find((e) => e.id === providerId)?.activation.id;
  expect(id).toMatch(/^act_/);
  return id!;
}

function card(page: Page, providerId: string) {
  return page.getByTestId(`provider-${providerId}`);
}

test("providers: catalog, filters, direct, registration with review, contract demo, several at once", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const owner = await consoleUser("providers");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(owner.keys.sandbox),
    data: { name: "Catalog shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  await signIn(page, owner.email, owner.password);
  await page.goto(`/console/sandbox/apps/${clientId}`);
  await page
    .getByRole("navigation", { name: "App sections" })
    .getByRole("link", { name: "Providers" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/apps/${clientId}/providers$`));

  // the whole catalog in the sandbox, passport activated from the start
  const list = page.getByRole("list", { name: "Providers" });
  await expect(list.getByRole("listitem").first()).toBeVisible();
  expect(await page.locator('[data-testid^="provider-"]').count()).toBeGreaterThan(20);
  await expect(card(page, "passport").getByText("activated", { exact: true })).toBeVisible();
  await expect(card(page, "nl_digid").getByText("not activated")).toBeVisible();
  await expect(card(page, "nl_digid")).toContainText("Netherlands");
  await checkLayouts(page, testInfo, "providers");

  // filters: by country (by name) and by status, kept in the URL
  await page.getByLabel("Country").selectOption({ label: "Sweden" });
  await expect(card(page, "se_bankid")).toBeVisible();
  await expect(card(page, "nl_digid")).toHaveCount(0);
  await expect(page).toHaveURL(/country=SE/);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByLabel("Search").fill("digid");
  await expect(card(page, "nl_digid")).toBeVisible();
  await expect(card(page, "passport")).toHaveCount(0);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(card(page, "passport")).toBeVisible();

  // a direct provider: one click, then switched off and on again
  await card(page, "de_eid")
    .getByRole("button", { name: /^Activate/ })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Nothing to fill in")).toBeVisible();
  await dialog.getByRole("button", { name: "Activate" }).click();
  await expect(card(page, "de_eid").getByText("activated", { exact: true })).toBeVisible();
  const enabled = card(page, "de_eid").getByRole("checkbox", { name: /enabled/ });
  await expect(enabled).toBeChecked();
  await enabled.uncheck();
  await expect(page.getByText("German eID card (Online-Ausweis) disabled")).toBeVisible();
  const app = await request.get(`/api/sandbox/v1/apps/${clientId}`, { headers: bearer(owner.keys.sandbox) });
  expect(
    ((await app.json()) as { providers: Record<string, { enabled: boolean }> }).providers.de_eid,
  ).toEqual({
    enabled: false,
  });

  // a registration form, generated from the requirements; the API refuses a bad email on its field
  await card(page, "nl_digid")
    .getByRole("button", { name: /Fill in form/ })
    .click();
  await expect(dialog.getByRole("heading", { name: "Activate DigiD" })).toBeVisible();
  await dialog.getByLabel("Legal company name").fill("Catalog Shop B.V.");
  await dialog.getByLabel("Company registration number").fill("NL12345678");
  await dialog.getByLabel("Service description").fill("Online shop with age checks");
  await dialog.getByLabel("Display name").fill("Catalog Shop");
  await dialog.getByLabel("Contact email").fill("not-an-email");
  await dialog.getByLabel("User data level").selectOption({ index: 1 });
  await dialog.getByLabel("Privacy policy URL").fill("https://shop.example.test/privacy");
  await dialog.getByRole("button", { name: "Submit for review" }).click();
  const emailError = dialog.locator(
    "#" + (await dialog.getByLabel("Contact email").getAttribute("id")) + "-error",
  );
  await expect(emailError).toHaveText("Contact email: enter an email address, like name@example.com");
  await expect(dialog.getByText("Check the highlighted fields.")).toBeVisible();
  await dialog.getByLabel("Contact email").fill("ops@shop.example.test");
  await dialog.getByRole("button", { name: "Submit for review" }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, "nl_digid").getByText("requested", { exact: true })).toBeVisible();
  await expect(card(page, "nl_digid")).toContainText("Requested");

  // an operator rejects it with a reason; the console shows the reason and reopens the form
  const operator = JSON.parse(
    (
      await idv([
        "operator",
        "create",
        "--email",
        `op-${Date.now().toString(36)}@example.test`,
        "--password",
        "operator-password-1",
        "--json",
      ])
    ).trim(),
  ) as { operatorKey: string };
  const op = (path: string, data?: unknown) =>
    request.post(`/api/sandbox/v1/operator/activations/${path}`, {
      headers: bearer(operator.operatorKey),
      data,
    });
  const ticket = await ticketOf(request, owner.keys.sandbox, clientId, "nl_digid");
  expect((await op(`${ticket}/review`)).status()).toBe(200);
  const reason = "The registration number does not match the company name.";
  expect((await op(`${ticket}/reject`, { reason })).status()).toBe(200);
  await page.reload();
  await expect(card(page, "nl_digid").getByText("rejected", { exact: true })).toBeVisible();
  await expect(card(page, "nl_digid")).toContainText(reason);
  await card(page, "nl_digid")
    .getByRole("button", { name: /Resubmit/ })
    .click();
  await expect(dialog.getByLabel("Contact email")).toHaveValue("ops@shop.example.test");
  await dialog.getByLabel("Company registration number").fill("NL87654321");
  await dialog.getByRole("button", { name: "Submit for review" }).click();
  await expect(card(page, "nl_digid").getByText("requested", { exact: true })).toBeVisible();
  const second = await ticketOf(request, owner.keys.sandbox, clientId, "nl_digid");
  expect(second).not.toBe(ticket);
  expect((await op(`${second}/review`)).status()).toBe(200);
  expect((await op(`${second}/approve`)).status()).toBe(200);
  await page.reload();
  await expect(card(page, "nl_digid").getByText("activated", { exact: true })).toBeVisible();
  await expect(card(page, "nl_digid")).toContainText("Activated");

  // a contract provider: whom to contact, and in the sandbox a demo activation that lands live
  await expect(card(page, "se_bankid")).toContainText(
    "Activated once a contract with the provider is signed",
  );
  await card(page, "se_bankid")
    .getByRole("button", { name: /Demo activation/ })
    .click();
  await expect(card(page, "se_bankid").getByText("activated", { exact: true })).toBeVisible({
    timeout: 10_000,
  });

  // two providers in one submission; the company information is remembered
  await card(page, "be_itsme").getByRole("checkbox", { name: "Select itsme for activation" }).check();
  await card(page, "dk_mitid").getByRole("checkbox", { name: "Select MitID for activation" }).check();
  await page.getByRole("button", { name: "Activate selected" }).click();
  await expect(dialog.getByRole("heading", { name: "Activate 2 providers" })).toBeVisible();
  const itsme = dialog.getByRole("region", { name: "itsme" });
  const mitid = dialog.getByRole("region", { name: "MitID" });
  await expect(itsme.getByLabel("Legal company name")).toHaveValue("Catalog Shop B.V.");
  await itsme.getByLabel("Identify the customer (e.g. AML/KYC onboarding)").check();
  await expect(mitid.getByLabel("Contact email")).toHaveValue("ops@shop.example.test");
  await mitid.getByLabel(/Accept the terms of use/).check();
  await mitid.getByLabel("User data level").selectOption({ index: 1 });
  await itsme.getByLabel("User data level").selectOption({ index: 1 });
  await dialog.getByLabel("Demo activation").check();
  await dialog.getByRole("button", { name: "Activate" }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, "be_itsme").getByText("activated", { exact: true })).toBeVisible({
    timeout: 10_000,
  });
  await expect(card(page, "dk_mitid").getByText("activated", { exact: true })).toBeVisible({
    timeout: 10_000,
  });
  await checkLayouts(page, testInfo, "providers-activated");
});

test("a filter typed while Clear filters is still loading does not bring the cleared filter back", async ({
  page,
  request,
}) => {
  const owner = await consoleUser("providers-filters");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(owner.keys.sandbox),
    data: { name: "Filter shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  await signIn(page, owner.email, owner.password);
  await page.goto(`/console/sandbox/apps/${clientId}/providers?country=SE`);
  await expect(card(page, "se_bankid")).toBeVisible();
  await expect(card(page, "nl_digid")).toHaveCount(0);

  // a slow network: every client-side navigation (an RSC request) takes 1.5 s, so the search
  // below is committed (after its 400 ms pause) while "Clear filters" has not reached the URL
  await page.route("**/*", async (route) => {
    if (route.request().headers()["rsc"] === "1") await new Promise((r) => setTimeout(r, 1_500));
    await route.fallback();
  });
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByLabel("Search").fill("digid");
  await expect(page).toHaveURL(/[?&]q=digid/, { timeout: 10_000 });
  await expect(page).not.toHaveURL(/country=/);
  await expect(card(page, "nl_digid")).toBeVisible();
  await expect(page.getByLabel("Country")).toHaveValue("");
});

test("a viewer sees the providers but no activation controls", async ({ page, request }) => {
  const owner = await consoleUser("providers-viewer");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(owner.keys.sandbox),
    data: { name: "Read-only shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  // the owner's API key acts as admin: it invites a viewer, who joins by the link with a password
  const email = `viewer-${Date.now().toString(36)}@example.test`;
  const invite = await request.post("/api/sandbox/v1/team/invitations", {
    headers: bearer(owner.keys.sandbox),
    data: { email, role: "viewer" },
  });
  expect(invite.status()).toBe(201);
  const { url } = (await invite.json()) as { url: string };
  const accepted = await request.post("/api/sandbox/v1/invitations/accept", {
    data: { token: url.split("/invite/")[1], password: "viewer-password-1", name: "Vera Viewer" },
  });
  expect(accepted.status()).toBe(200);
  await signIn(page, email, "viewer-password-1");
  await page.goto(`/console/sandbox/apps/${clientId}/providers`);
  await expect(card(page, "passport").getByText("activated", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Activate|Fill in form|Demo activation/ })).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
});
