/**
 * Form errors in words a person uses (issue 29, item 3), in the activation form a new integrator
 * fills first: the API's refusal lands on each field naming it and saying what to do ("Legal
 * company name: enter a name", "User data level: choose Basic, Standard or Extended"), never the
 * API's own phrases ("must not be empty", "must be one of: …"); a field's error goes as soon as
 * the field changes, the others stay until theirs do. Keyboard only, axe, no sideways scroll and
 * screenshots at 390 px and 1440 px. Other forms on the same helper: the Domain tab's hosts.
 */
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { consoleUser, expectAxeClean, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function checkWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAxeClean(page);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(scroll, `${name} at ${width}px must not scroll sideways`).toBeLessThanOrEqual(1);
    // the dialog is what this is about (a full-page shot of a modal shows it out of place)
    const dialog = page.getByRole("dialog");
    const shot = (await dialog.count()) ? dialog : page;
    const body = await shot.screenshot({ path: testInfo.outputPath(`${name}-${width}px.png`) });
    await testInfo.attach(`${name}-${width}px`, { body, contentType: "image/png" });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The error shown with a control (its `-error` paragraph), by the control's id. */
async function errorOf(dialog: Locator, control: Locator): Promise<Locator> {
  return dialog.locator(`[id="${await control.getAttribute("id")}-error"]`);
}

test("activation form: API errors in words naming the field, each cleared when its field changes", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const owner = await consoleUser("form-errors");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(owner.keys.sandbox),
    data: { name: "Words shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  await signIn(page, owner.email, owner.password);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/console/sandbox/apps/${clientId}/providers`);

  // open the registration form of DigiD by keyboard
  const open = page.getByTestId("provider-nl_digid").getByRole("button", { name: /Fill in form/ });
  await open.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Activate DigiD" })).toBeVisible();

  // sent empty: the API refuses every field; each says, on its field, what to do
  const submit = dialog.getByRole("button", { name: "Submit for review" });
  await submit.focus();
  await page.keyboard.press("Enter");
  const company = dialog.getByLabel("Legal company name");
  const level = dialog.getByLabel("User data level");
  const email = dialog.getByLabel("Contact email");
  await expect(company).toHaveAttribute("aria-invalid", "true");
  await expect(await errorOf(dialog, company)).toHaveText("Legal company name: enter a name");
  await expect(company).toHaveAccessibleDescription(/Legal company name: enter a name/);
  await expect(await errorOf(dialog, level)).toHaveText(
    "User data level: choose Basic, Standard or Extended",
  );
  await expect(await errorOf(dialog, email)).toHaveText(
    "Contact email: enter an email address, like name@example.com",
  );
  await expect(dialog.getByText("Check the highlighted fields.")).toBeVisible();
  // the API's own phrases never reach the person
  await expect(dialog).not.toContainText("must not be empty");
  await expect(dialog).not.toContainText("must be one of");
  await expect(dialog).not.toContainText("Required");
  await checkWidths(page, testInfo, "form-errors-sent-empty");

  // typing in a field clears its error at once (before leaving it); the others stay
  await company.focus();
  await page.keyboard.type("W");
  await expect(company).not.toHaveAttribute("aria-invalid", "true");
  await expect(await errorOf(dialog, company)).toHaveCount(0);
  await expect(await errorOf(dialog, email)).toHaveText(/^Contact email: /);
  await page.keyboard.type("ords Shop B.V.");

  // the level chosen by keyboard, by the words the error used
  await expect(level.locator("option", { hasText: /^Basic — / })).toHaveCount(1);
  await level.focus();
  await page.keyboard.press("ArrowDown");
  await expect(level).toHaveValue("basic");
  await expect(await errorOf(dialog, level)).toHaveCount(0);

  // a wrong email again, sent: the new answer shows on the field, in words, and goes on change
  await email.focus();
  await page.keyboard.type("not-an-email");
  await submit.focus();
  await page.keyboard.press("Enter");
  await expect(await errorOf(dialog, email)).toHaveText(
    "Contact email: enter an email address, like name@example.com",
  );
  await expect(await errorOf(dialog, company)).toHaveCount(0);
  await email.focus();
  await page.keyboard.press("End");
  await page.keyboard.press("Backspace");
  await expect(await errorOf(dialog, email)).toHaveCount(0);
  await checkWidths(page, testInfo, "form-errors-cleared");

  // Escape closes the form
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("domain hosts form: the API's field error names the field and goes when it changes", async ({
  page,
  request,
}) => {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const owner = await consoleUser("form-errors-domain");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(owner.keys.sandbox),
    data: { name: "Hosts shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  await signIn(page, owner.email, owner.password);
  await page.goto(`/console/sandbox/apps/${clientId}/domain`);
  const web = page.getByLabel("Web host");
  const oidc = page.getByLabel("OIDC host");
  await web.fill(`verify.shop-${unique}.co.uk`);
  await oidc.fill(`auth.other-${unique}.co.uk`);
  await oidc.press("Enter");
  await expect(oidc).toHaveAttribute("aria-invalid", "true");
  await expect(oidc).toHaveAccessibleDescription(/^.*OIDC host: must share the base domain of the web host/i);
  await oidc.press("Backspace");
  await expect(oidc).not.toHaveAttribute("aria-invalid", "true");
});
