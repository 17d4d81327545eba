/**
 * API keys and the team in the console: a key shown once, used against the API and revoked (401
 * at once); an invitation link shown once, accepted in another browser by setting a password; a
 * viewer sees everything read-only and is refused by the API; roles change; the last owner cannot
 * leave. Dialogs driven by keyboard; axe and 360 px screenshots of every page.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { checkLayouts, consoleUser, expectAxeClean, signIn } from "./support";
import { linkOf, mailTo } from "../support/mail";

/** Presses Tab until `target` has focus: it is reachable by keyboard, in a sensible number of steps. */
async function tabTo(page: Page, target: Locator, maxSteps = 40): Promise<void> {
  for (let i = 0; i < maxSteps; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${String(target)} was not reached with ${maxSteps} presses of Tab`);
}

test("API keys: create one (shown once), call the API with it, revoke it (401 at once)", async ({
  page,
  request,
  context,
}, testInfo) => {
  const owner = await consoleUser("keys");
  await signIn(page, owner.email, owner.password);
  await page.goto("/console/sandbox/api-keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByText("Authorization: Bearer sk_workspace_test_…")).toBeVisible();
  // the key the CLI made with the workspace: recognisable by its prefix, never shown whole
  const cliRow = page.getByRole("row", { name: new RegExp(`${owner.keys.sandbox.slice(0, 22)}…`) });
  await expect(cliRow).toContainText(owner.email);
  await expect(cliRow).toContainText("Active");
  await expect(page.getByText(owner.keys.sandbox)).toHaveCount(0);
  await checkLayouts(page, testInfo, "api-keys");

  // keyboard only: Tab to the button, Enter, type the name, Enter
  const createButton = page.getByRole("button", { name: "Create key" });
  await tabTo(page, createButton);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Name", { exact: true })).toBeFocused();
  await page.keyboard.type("Web shop backend");
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("heading", { name: "Web shop backend created" })).toBeVisible();
  await expect(dialog.getByText("shown only this once")).toBeVisible();
  const key = (await dialog.locator("code").first().textContent())?.trim() ?? "";
  expect(key).toMatch(/^sk_workspace_test_[A-Za-z0-9_-]{20,}$/);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await dialog.getByRole("button", { name: "Copy secret key" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await checkLayouts(page, testInfo, "api-key-created");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  // once closed, the secret is gone from the page
  await expect(page.getByText(key)).toHaveCount(0);

  const bearer = { Authorization: `Bearer ${key}` };
  const ok = await request.get("/api/sandbox/v1/apps", { headers: bearer });
  expect(ok.status()).toBe(200);
  // a sandbox key means nothing in production
  expect((await request.get("/api/production/v1/apps", { headers: bearer })).status()).toBe(401);

  const row = page.getByRole("row", { name: /Web shop backend/ });
  await expect(row).toContainText(owner.email);
  await expect(row).toContainText(`${key.slice(0, 22)}…`);
  // last use is recorded off the request's path: it shows up shortly
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("row", { name: /Web shop backend/ })).not.toContainText("Never", {
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });

  await page
    .getByRole("row", { name: /Web shop backend/ })
    .getByRole("button", { name: "Revoke" })
    .click();
  await expect(dialog.getByRole("heading", { name: "Revoke Web shop backend?" })).toBeVisible();
  await expect(dialog).toContainText("Requests using it fail at once");
  await expectAxeClean(page);
  await dialog.getByRole("button", { name: "Revoke" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Web shop backend revoked" })).toBeVisible();
  const revokedRow = page.getByRole("row", { name: /Web shop backend/ });
  await expect(revokedRow).toContainText("Revoked");
  await expect(revokedRow.getByRole("button", { name: "Revoke" })).toHaveCount(0);

  const refused = await request.get("/api/sandbox/v1/apps", { headers: bearer });
  expect(refused.status()).toBe(401);
});

test("team: invite a viewer by link, who joins with a password and can only read; roles change; the last owner stays", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const owner = await consoleUser("team");
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const viewerEmail = `viewer-${unique}@example.test`;
  const viewerPassword = `viewer password ${unique}`;
  await signIn(page, owner.email, owner.password);
  await page.goto("/console/sandbox/team");
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  // rows of the members table (the owner's email also appears under "Invited … by")
  const members = (p: Page) => p.getByRole("region", { name: "Members", exact: true });
  const ownerRow = members(page).getByRole("row", { name: new RegExp(owner.email) });
  await expect(ownerRow.getByText("You", { exact: true })).toBeVisible();
  await expect(page.getByText("No pending invitations.")).toBeVisible();
  await checkLayouts(page, testInfo, "team");

  // keyboard only: Tab to the button, Enter, type the email, Enter (the role defaults to viewer)
  await tabTo(page, page.getByRole("button", { name: "Invite member" }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Email")).toBeFocused();
  // each role is offered with what it may do; the owner may grant the owner role
  await expect(dialog.getByRole("radio", { name: "Viewer" })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: "Viewer" })).toHaveAccessibleDescription(/changes nothing/);
  await expect(dialog.getByRole("radio", { name: "Owner" })).toBeVisible();
  await page.keyboard.type(viewerEmail);
  await checkLayouts(page, testInfo, "team-invite-dialog");
  await expect(dialog.getByLabel("Email")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("heading", { name: "Invitation link" })).toBeVisible();
  await expect(dialog).toContainText("shown only this once");
  await expect(dialog).toContainText("privately");
  const link = (await dialog.locator("code").first().textContent())?.trim() ?? "";
  expect(link).toMatch(/^https?:\/\/[^/]+\/invite\/[A-Za-z0-9]{43}$/);
  await expect(dialog.getByRole("button", { name: "Copy link" })).toBeFocused();
  // the e2e server sends mail: the same link went to the invited address
  await expect(dialog.getByRole("status")).toHaveText(`We emailed the link to ${viewerEmail}.`);
  const invitationMail = await mailTo(viewerEmail, /^Join .+ on the Identity verification broker$/);
  expect(linkOf(invitationMail, "/invite/")).toBe(new URL(link).pathname);
  await checkLayouts(page, testInfo, "team-invite-link");
  await dialog.getByRole("button", { name: "Done" }).click();
  const invitationRow = page.getByRole("row", { name: new RegExp(viewerEmail) });
  await expect(invitationRow).toContainText("Viewer");
  await expect(invitationRow).toContainText(`by ${owner.email}`);

  // a second invitation, revoked: its link stops working
  await page.getByRole("button", { name: "Invite member" }).click();
  await dialog.getByLabel("Email").fill(`revoked-${unique}@example.test`);
  await dialog.getByRole("radio", { name: "Developer" }).check();
  await dialog.getByRole("button", { name: "Create invitation link" }).click();
  const revokedLink = (await dialog.locator("code").first().textContent())?.trim() ?? "";
  await dialog.getByRole("button", { name: "Done" }).click();
  await page
    .getByRole("row", { name: new RegExp(`revoked-${unique}`) })
    .getByRole("button", { name: "Revoke" })
    .click();
  await dialog.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("row", { name: new RegExp(`revoked-${unique}`) })).toHaveCount(0);

  // the invitee, in a browser of their own (the link's host is PUBLIC_URL: same server)
  const origin = new URL(page.url()).origin;
  const invitee = await browser.newContext();
  try {
    const guest = await invitee.newPage();
    await guest.goto(`${origin}${new URL(revokedLink).pathname}`);
    await expect(guest.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();
    await expect(guest.getByRole("alert").filter({ hasText: "withdrawn" })).toBeVisible();
    await expect(guest.getByRole("link", { name: "Sign in" })).toBeVisible();
    await checkLayouts(guest, testInfo, "invite-invalid");

    await guest.goto(`${origin}${new URL(link).pathname}`);
    await expect(
      guest.getByRole("heading", { level: 1, name: /^Join E2E team .+ as a viewer$/ }),
    ).toBeVisible();
    await expect(guest.getByLabel("Email")).toHaveValue(viewerEmail);
    await checkLayouts(guest, testInfo, "invite");
    await guest.getByLabel("Your name").fill("Vera Viewer");
    await guest.getByLabel("Password", { exact: true }).fill(viewerPassword);
    await guest.getByRole("button", { name: "Join workspace" }).click();
    await guest.waitForURL(/\/console\/sandbox\/dashboard$/);

    // as the viewer: keys and team read-only
    await guest.goto(`${origin}/console/sandbox/api-keys`);
    await expect(guest.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    await expect(guest.getByText("may not create or revoke API keys")).toBeVisible();
    await expect(guest.getByRole("row", { name: /Default key/ })).toBeVisible();
    await expect(guest.getByRole("button", { name: "Create key" })).toHaveCount(0);
    await expect(guest.getByRole("button", { name: "Revoke" })).toHaveCount(0);
    await checkLayouts(guest, testInfo, "api-keys-viewer");

    await guest.goto(`${origin}/console/sandbox/team`);
    await expect(members(guest).getByRole("row", { name: new RegExp(owner.email) })).toBeVisible();
    const selfRow = members(guest).getByRole("row", { name: /Vera Viewer/ });
    await expect(selfRow.getByText("You", { exact: true })).toBeVisible();
    await expect(selfRow.getByRole("button", { name: "Leave workspace" })).toBeVisible();
    await expect(guest.getByRole("combobox", { name: /^Role of/ })).toHaveCount(0);
    await expect(guest.getByRole("button", { name: "Remove" })).toHaveCount(0);
    await expect(guest.getByRole("button", { name: "Invite member" })).toHaveCount(0);
    await expect(guest.getByText("Only owners and admins can invite members.")).toBeVisible();
    await checkLayouts(guest, testInfo, "team-viewer");

    // the API refuses the viewer's writes whatever the page shows (a same-origin write: CSRF passes)
    const write = await guest.request.post(`${origin}/api/sandbox/v1/apps`, {
      headers: { Origin: origin },
      data: { name: "Viewer's app" },
    });
    expect(write.status()).toBe(403);
    expect(((await write.json()) as { error: { code: string } }).error.code).toBe("RESOURCE_FORBIDDEN");

    // the owner makes the viewer a developer
    await page.reload();
    const roleSelect = page.getByRole("combobox", { name: `Role of ${viewerEmail}` });
    await expect(roleSelect).toHaveValue("viewer");
    await roleSelect.selectOption("developer");
    const viewerRow = members(page).getByRole("row", { name: /Vera Viewer/ });
    await expect(viewerRow).toContainText("Builds the integration");
    await viewerRow.getByRole("button", { name: "Save" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `${viewerEmail} is now developer` }),
    ).toBeVisible();
    await page.reload();
    await expect(page.getByRole("combobox", { name: `Role of ${viewerEmail}` })).toHaveValue("developer");
    // …who now manages sandbox keys
    await guest.goto(`${origin}/console/sandbox/api-keys`);
    await expect(guest.getByRole("button", { name: "Create key" })).toBeVisible();
  } finally {
    await invitee.close();
  }

  // the only owner can neither leave nor step down
  await ownerRow.getByRole("button", { name: "Leave workspace" }).click();
  await expect(dialog.getByRole("heading", { name: /^Leave E2E team / })).toBeVisible();
  await dialog.getByRole("button", { name: "Leave workspace" }).click();
  await expect(dialog.getByRole("alert")).toContainText("only owner");
  await checkLayouts(page, testInfo, "team-last-owner");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/console\/sandbox\/team$/);

  const ownSelect = page.getByRole("combobox", { name: `Role of ${owner.email}` });
  await ownSelect.selectOption("admin");
  await ownerRow.getByRole("button", { name: "Save" }).click();
  await expect(ownerRow.getByRole("alert")).toContainText("needs an owner");
});

test("an existing account joins another workspace with its own password and lands in it", async ({
  page,
  browser,
}) => {
  const owner = await consoleUser("inviter");
  const existing = await consoleUser("invitee");
  await signIn(page, owner.email, owner.password);
  await page.goto("/console/sandbox/team");
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(existing.email);
  await dialog.getByRole("radio", { name: "Developer" }).check();
  await dialog.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await dialog.locator("code").first().textContent())?.trim() ?? "";
  expect(link).toContain("/invite/");

  const origin = new URL(page.url()).origin;
  const invitee = await browser.newContext();
  try {
    const guest = await invitee.newPage();
    await guest.goto(`${origin}${new URL(link).pathname}`);
    await expect(
      guest.getByRole("heading", { level: 1, name: /^Join E2E inviter .+ as a developer$/ }),
    ).toBeVisible();
    // an existing account: no name to give, its own password to confirm
    await expect(guest.getByLabel("Your name")).toHaveCount(0);
    await expect(guest.getByText("enter its existing password")).toBeVisible();
    await guest.getByLabel("Password", { exact: true }).fill("not the password at all");
    await guest.getByRole("button", { name: "Join workspace" }).click();
    await expect(guest.getByText(`is not the password of your account ${existing.email}`)).toBeVisible();
    await guest.getByLabel("Password", { exact: true }).fill(existing.password);
    await guest.getByRole("button", { name: "Join workspace" }).click();
    await guest.waitForURL(/\/console\/sandbox\/dashboard$/);
    // the console opens on the workspace just joined, not the account's own
    await expect(guest.getByTestId("workspace-name")).toHaveText(/^E2E inviter /);
  } finally {
    await invitee.close();
  }
});
