/**
 * The back-office's connections (issue 24): the list of every provider with its state; an oidc
 * connection made with the form generated from the adapter's settings schema against a real
 * OpenID Provider running in this process (a refused setting shown beside its field, the
 * insecure-requests warning), saved and checked with the keyboard alone, a test sign-in in a new
 * tab that shows the mapped and raw claims and hands them to the claim-mapping editor's preview,
 * then disconnected. And the console's card of an activated production provider that nothing
 * connects yet. axe and 360 px on each page; on a phone the list is a card per provider, a
 * connected provider's state inside the viewport.
 */
import { expect, test, type Page } from "@playwright/test";
import { startUpstreamOp, type TUpstreamOp } from "../../lib/testing/upstream-oidc";
import { createWorkspace } from "../support/cli";
import { E2E_ENV } from "../support/env";
import { checkLayouts, signIn } from "../console/support";
import { bearer, makeOperator, operatorPage } from "./support";

// a provider no other spec connects (connections are environment-wide)
const PROVIDER = "ch_swissid";
const PROVIDER_NAME = "SwissID";

let op: TUpstreamOp;

test.beforeAll(async () => {
  op = await startUpstreamOp({
    redirectUri: `${E2E_ENV.PUBLIC_URL}/verify/callback`,
    scopes: { eid: ["prenom", "nom"] },
    accounts: {
      marie: {
        claims: { given_name: "Marie", family_name: "Curie", prenom: "Marie", nom: "Curie" },
        acr: "loa-high",
      },
    },
  });
});

test.afterAll(async () => {
  await op?.close();
});

/** Presses Tab until the focused element is the button named `name` (the keyboard-only path). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el?.tagName === "BUTTON" ? (el.textContent ?? "").trim() : "";
    });
    if (focused === name) return;
  }
  throw new Error(`Tab never reached the button "${name}"`);
}

test("connections: list, generated oidc form, save and check by keyboard, test sign-in in a new tab, mapping preview", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const page = await operatorPage(browser, await makeOperator("e2e-connections"));
  // the list: every provider, this one not connected
  await page.goto("/operator/production/connections");
  await expect(page.getByRole("heading", { name: "Connections", level: 1 })).toBeVisible();
  const row = page.getByTestId(`connection-${PROVIDER}`);
  await expect(row.getByTestId("connection-state")).toHaveText(/Not connected|Connected|Failing|Disabled/);
  await expect(page.getByTestId(/^connection-/).first()).toBeVisible();
  expect(await page.locator('tr[data-testid^="connection-"]').count()).toBeGreaterThan(20);
  await expect(row).toContainText("oidc");
  await checkLayouts(page, testInfo, "connections-list");

  // the connection page: the form generated from the oidc settings schema
  await row.getByRole("link", { name: PROVIDER_NAME }).click();
  await expect(page.getByRole("heading", { name: PROVIDER_NAME, level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Connection settings" });
  await expect(form.getByLabel("Adapter")).toHaveValue("oidc");
  await form.getByLabel("Issuer").fill(op.issuer);
  await form.getByLabel("Client ID").fill(op.clientId);
  const secret = form.getByLabel(/^(Client secret|New client secret)$/);
  if (!(await secret.isVisible())) await form.getByRole("button", { name: "Replace client secret" }).click();
  await secret.fill(op.clientSecret);
  await form.getByLabel("Scopes").fill("openid\nprofile\neid");
  const insecure = form.getByLabel("Allow insecure requests");
  await insecure.uncheck();

  // an http issuer without allowInsecureRequests: refused on its field
  await form.getByRole("button", { name: "Save" }).click();
  const issuerId = await form.getByLabel("Issuer").getAttribute("id");
  await expect(page.locator(`#${issuerId}-error`)).toContainText("must use https");
  await expect(form.getByText("Check the highlighted fields.")).toBeVisible();

  // allowed (local testing): the warning shows; saved with the keyboard alone
  await insecure.check();
  await expect(page.getByTestId("insecure-warning")).toContainText("for local testing only");
  await insecure.focus();
  await tabTo(page, "Save");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("connection-state")).toHaveText("Connected");
  await expect(page.getByText(`${PROVIDER_NAME}: connection saved`)).toBeVisible();
  // the secret is write-only: stored, never shown
  await expect(form.getByRole("button", { name: "Replace client secret" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText(op.clientSecret);

  // checked with the keyboard alone
  await tabTo(page, "Check connection");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("check-ok")).toHaveText("Check passed");
  await checkLayouts(page, testInfo, "connection-page");

  // on a phone a connected provider's state is on screen, not in a column scrolled off to the
  // right: whichever element shows the provider, its state badge lies within the 360 px viewport
  // (measured before anything scrolls sideways)
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 360, height: 800 });
  await phone.goto("/operator/production/connections");
  const shown = phone
    .locator(`[data-testid="connection-${PROVIDER}"], [data-testid="connection-card-${PROVIDER}"]`)
    .filter({ visible: true });
  const shownState = shown.getByTestId("connection-state");
  await expect(shownState).toHaveText("Connected");
  const badge = await shownState.boundingBox();
  expect(badge, "the state badge is laid out").not.toBeNull();
  expect(badge!.x).toBeGreaterThanOrEqual(0);
  expect(badge!.x + badge!.width, "the state badge fits in 360 px").toBeLessThanOrEqual(360);
  // and so do its error rates and last error (the old table row ran on far past 360 px)
  const box = await shown.boundingBox();
  expect(box!.x + box!.width, "the provider's entry fits in 360 px").toBeLessThanOrEqual(360);
  expect(await phone.evaluate(() => window.scrollX)).toBe(0);
  // it is the provider's card: the same data and link as the table's row
  const card = phone.getByTestId(`connection-card-${PROVIDER}`);
  await expect(card.getByTestId("connection-state")).toBeVisible();
  await expect(card.getByRole("link", { name: PROVIDER_NAME })).toHaveAttribute(
    "href",
    `/operator/production/connections/${PROVIDER}`,
  );
  await expect(card).toContainText(PROVIDER);
  await expect(card).toContainText("oidc");
  await expect(card).toContainText("Errors, last hour");
  await expect(card).toContainText("Errors, last day");
  await expect(card).toContainText("Last error");
  expect(await phone.locator('li[data-testid^="connection-card-"]').count()).toBeGreaterThan(20);
  await expect(phone.getByTestId(`connection-${PROVIDER}`)).toBeHidden();
  await checkLayouts(phone, testInfo, "connections-list-connected");
  // at 1280 px (where checkLayouts leaves it) the table replaces the cards
  await expect(phone.getByTestId(`connection-${PROVIDER}`).getByTestId("connection-state")).toHaveText(
    "Connected",
  );
  await expect(card).toBeHidden();
  await phone.close();

  // test sign-in: a real sign-in at the OP in a new tab, the claims shown there
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Test sign-in" }).click();
  const popup = await popupOpened;
  // the test OP has no sign-in page of its own: at each of its interactions (login, then
  // consent) the browser posts the account to its interaction handler, as its form would
  const resultPage = new RegExp(`/operator/production/connections/${PROVIDER}/test-sign-in$`);
  for (let step = 0; step < 4; step++) {
    await popup.waitForURL(
      (url) => url.pathname.startsWith("/interaction/") || resultPage.test(url.pathname),
    );
    if (resultPage.test(new URL(popup.url()).pathname)) break;
    const moved = popup.waitForEvent("framenavigated", (frame) => frame === popup.mainFrame());
    await popup.evaluate((account) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = `${location.pathname}/login`;
      const input = document.createElement("input");
      input.name = "login";
      input.value = account;
      form.append(input);
      document.body.append(form);
      form.submit();
    }, "marie");
    await moved;
  }
  await popup.waitForURL(new RegExp(`/operator/production/connections/${PROVIDER}/test-sign-in$`));
  await expect(popup.getByTestId("test-outcome")).toHaveText("Signed in");
  await expect(popup.getByTestId("mapped-claims")).toContainText("given_name");
  await expect(popup.getByTestId("mapped-claims")).toContainText('"Marie"');
  await expect(popup.getByTestId("raw-claims")).toContainText("prenom");
  await checkLayouts(popup, testInfo, "test-sign-in-result");

  // the connection page received the upstream claims: the mapping preview updates as rows change
  await expect(page.getByTestId("test-outcome")).toHaveText("Signed in");
  await expect(page.getByTestId("preview-upstream")).toContainText("nom");
  await expect(page.getByTestId("preview-mapped")).not.toContainText("nickname");
  await form.getByRole("button", { name: "Add mapping" }).click();
  await form.getByLabel("Upstream claim 1").fill("prenom");
  await form.getByLabel("OIDC claim 1").selectOption("nickname");
  await expect(page.getByTestId("preview-mapped")).toContainText("nickname");
  await form.getByRole("button", { name: "Add mapping" }).click();
  await form.getByLabel("Upstream claim 2").fill("nom");
  await form.getByLabel("OIDC claim 2").selectOption("middle_name");
  await expect(page.getByTestId("preview-mapped")).toContainText("middle_name");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`${PROVIDER_NAME}: connection saved`).first()).toBeVisible();
  // the saved mapping comes back (in the stored order) and still drives the preview
  await expect(form.getByLabel(/^Upstream claim \d$/)).toHaveCount(2);
  await expect(page.getByTestId("preview-mapped")).toContainText("nickname");
  await expect(page.getByTestId("preview-mapped")).toContainText("middle_name");
  await checkLayouts(page, testInfo, "connection-mapping");

  // disconnect, confirmed
  await page.getByRole("button", { name: "Disconnect" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Disconnect ${PROVIDER_NAME}?`);
  await dialog.getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByTestId("connection-state")).toHaveText("Not connected");
  await page.getByRole("link", { name: "Back to connections" }).click();
  await expect(page.getByTestId(`connection-${PROVIDER}`).getByTestId("connection-state")).toHaveText(
    "Not connected",
  );
});

test("console: an activated production provider without a connection waits for the operator", async ({
  page,
  request,
}, testInfo) => {
  // axe on the whole catalog at two widths takes a while on a loaded machine
  test.setTimeout(90_000);
  const owner = await createWorkspace("connections-waiting");
  const created = await request.post("/api/production/v1/apps", {
    headers: bearer(owner.keys.production),
    data: { name: "Waiting shop" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { clientId } = (await created.json()) as { clientId: string };
  // a direct provider no spec connects: activated at once, not connected
  const activated = await request.post(`/api/production/v1/apps/${clientId}/activation`, {
    headers: bearer(owner.keys.production),
    data: { providers: { es_dnie: {} } },
  });
  expect(activated.status(), await activated.text()).toBe(200);

  await signIn(page, owner.email, owner.password);
  await page.goto(`/console/production/apps/${clientId}/providers`);
  const card = page.getByTestId("provider-es_dnie");
  await expect(card.getByText("activated", { exact: true })).toBeVisible();
  await expect(card.getByTestId("provider-es_dnie-unavailable")).toContainText(
    "Activated — waiting for the operator to connect it",
  );
  await expect(card.getByTestId("provider-es_dnie-unavailable")).toContainText(
    "Sessions with it are refused until then",
  );
  await checkLayouts(page, testInfo, "console-provider-waiting");
});
