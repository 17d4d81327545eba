/**
 * The console as a new integrator meets it: sign-up, sign-in (and its brute-force limit),
 * the environment switch, apps with secrets shown once, redirect URIs validated by the API,
 * a logo, the quick start, deleting an app, renaming the workspace; CSRF refusals of the
 * session API; "sign out of all sessions" ending another browser's session. axe and 360 px
 * screenshots on every page.
 */
import { Buffer } from "node:buffer";
import { expect, test } from "@playwright/test";
import { checkLayouts, consoleUser, expectAxeClean, formAlert, signIn } from "./support";
import { linkOf, mailTo } from "../support/mail";

// a real 2×2 PNG (the API checks the image's structure)
const PNG_2X2 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

function basic(clientId: string, secret: string) {
  return { Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` };
}

test("sign up, land in the sandbox, switch environments, rename the workspace, sign out", async ({
  page,
}, testInfo) => {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await page.goto("/");
  await checkLayouts(page, testInfo, "sign-in");
  await page.getByRole("link", { name: "Create a workspace" }).click();
  await expect(page.getByRole("heading", { name: "Create a workspace" })).toBeVisible();
  await checkLayouts(page, testInfo, "sign-up");
  await page.getByLabel("Workspace name").fill(`Shop ${unique}`);
  await page.getByLabel("Your name").fill("Ada Integrator");
  await page.getByLabel("Email").fill(`signup-${unique}@example.test`);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create workspace" }).click();
  // the browser's own check stops a too-short password before the API
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create workspace" }).click();
  // the answer is the same for any address: the rest happens by email
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.locator("main").getByRole("status")).toContainText(`signup-${unique}@example.test`);
  await checkLayouts(page, testInfo, "sign-up-check-email");
  const mail = await mailTo(`signup-${unique}@example.test`, "Confirm your email to create your workspace");
  await page.goto(linkOf(mail, "/signup/confirm/"));
  await expect(page.getByRole("heading", { name: "Confirm your sign-up" })).toBeVisible();
  await checkLayouts(page, testInfo, "sign-up-confirm");
  await page.getByLabel("Password").fill("a long enough password");
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/console\/sandbox\/dashboard$/);
  await page.goto("/console/sandbox/apps");
  await expect(page.getByTestId("workspace-name")).toHaveText(`Shop ${unique}`);
  await expect(page.getByText("Sandbox: test data")).toBeVisible();

  // the environment is part of the URL: switching keeps the section, reload keeps the choice
  await page.getByRole("link", { name: "Apps" }).first().click();
  await expect(page).toHaveURL(/\/console\/sandbox\/apps$/);
  await page.getByLabel("Environment").selectOption("Production");
  await expect(page).toHaveURL(/\/console\/production\/apps$/);
  await expect(page.getByText("Production: live data")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Environment")).toHaveValue("production");
  await expect(page.getByText("Sandbox: test data")).toHaveCount(0);

  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByLabel("Workspace name").fill(`Renamed ${unique}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("workspace-name")).toHaveText(`Renamed ${unique}`);
  await checkLayouts(page, testInfo, "settings");

  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  await page.goto("/console/sandbox/apps");
  await expect(page).toHaveURL(/\/\?callbackUrl=/);
});

test("sign-in errors do not tell whether the email exists, and repeated failures are refused with 429", async ({
  page,
  request,
}) => {
  const user = await consoleUser("sign-in");
  await page.goto("/");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(formAlert(page)).toHaveText("Email or password is incorrect.");
  await page.getByLabel("Email").fill(`nobody-${Date.now()}@example.test`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(formAlert(page)).toHaveText("Email or password is incorrect.");

  // nine more failures for this email (ten in all) exhaust its default limit
  const csrf = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  for (let i = 0; i < 9; i++) {
    await request.post("/api/auth/callback/credentials", {
      form: { email: user.email, password: `guess ${i}`, csrfToken: csrf.csrfToken, json: "true" },
    });
  }
  const refused = await request.post("/api/auth/callback/credentials", {
    form: { email: user.email, password: user.password, csrfToken: csrf.csrfToken, json: "true" },
  });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");

  // the right password is refused too while the limit holds, with a visible message
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(formAlert(page)).toContainText("Too many attempts");
});

test("apps: create with the secret shown once, rotate it, validate redirect URIs, upload a logo, delete", async ({
  page,
  request,
}, testInfo) => {
  const user = await consoleUser("apps");
  await signIn(page, user.email, user.password);
  await page.goto("/console/sandbox/apps");
  await expect(page.getByRole("heading", { name: "No apps yet" })).toBeVisible();
  await checkLayouts(page, testInfo, "apps-empty");

  await page.getByRole("button", { name: "Create app" }).first().click();
  await page.getByLabel("App name").fill("Web shop");
  await page.getByRole("button", { name: "Create app" }).last().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Web shop is ready" })).toBeVisible();
  await expect(dialog.getByText("shown only this once")).toBeVisible();
  await expectAxeClean(page);
  const codes = dialog.locator("code");
  const clientId = (await codes.nth(0).textContent())!.trim();
  const secret = (await codes.nth(1).textContent())!.trim();
  expect(clientId).toMatch(/^app_/);
  expect(secret).toMatch(/^cs_test_/);
  expect(
    (await request.get("/api/sandbox/v1/providers", { headers: basic(clientId, secret) })).status(),
  ).toBe(200);

  await dialog.getByRole("link", { name: "Open app" }).click();
  await expect(page.getByRole("heading", { name: "Web shop" })).toBeVisible();
  await expect(page.getByText(clientId).first()).toBeVisible();
  // the list's modal dialog (which makes the rest of the page inert) is gone with the list
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await checkLayouts(page, testInfo, "app-overview");

  // rotate: the new secret works, the old one stops at once
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
  const rotated = (await page.getByRole("dialog").locator("code").first().textContent())!.trim();
  expect(rotated).not.toBe(secret);
  expect(
    (await request.get("/api/sandbox/v1/providers", { headers: basic(clientId, secret) })).status(),
  ).toBe(401);
  expect(
    (await request.get("/api/sandbox/v1/providers", { headers: basic(clientId, rotated) })).status(),
  ).toBe(200);
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();

  // redirect URIs: the API's verdict lands on the field (a URL the browser accepts, the API not)
  await page.getByLabel("Redirect URI 1", { exact: true }).fill("https://shop.example.test/cb#done");
  await page.getByRole("button", { name: "Add redirect URI" }).click();
  await page.getByLabel("Redirect URI 2", { exact: true }).fill("https://shop.example.test/callback");
  const redirectCard = page.locator("section", { has: page.getByRole("heading", { name: "Redirect URIs" }) });
  await redirectCard.getByRole("button", { name: "Save" }).click();
  await expect(
    redirectCard.locator(
      "#" + (await page.getByLabel("Redirect URI 1", { exact: true }).getAttribute("id")) + "-error",
    ),
  ).toContainText("must not contain a fragment");
  await page.getByLabel("Redirect URI 1", { exact: true }).fill("http://localhost:4000/callback");
  await redirectCard.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Redirect URIs saved")).toBeVisible();

  // logo: uploaded, previewed, saved
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG_2X2 });
  await expect(page.getByAltText("Logo preview")).toBeVisible();
  const detailsCard = page.locator("section", { has: page.getByRole("heading", { name: "Name and logo" }) });
  await detailsCard.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Redirect URI 1", { exact: true })).toHaveValue(
    "http://localhost:4000/callback",
  );
  await expect(page.getByLabel("Redirect URI 2", { exact: true })).toHaveValue(
    "https://shop.example.test/callback",
  );
  await expect(page.getByAltText("Logo preview")).toHaveAttribute("src", /^data:image\/png;base64,/);

  // quick start carries the app's ids, never its secret
  const snippet = page.getByLabel("curl snippet");
  await expect(snippet).toContainText(clientId);
  await expect(snippet).not.toContainText(rotated);
  await page.getByRole("button", { name: "next-auth" }).click();
  await expect(page.getByLabel("next-auth snippet")).toContainText(
    "/oidc/sandbox/.well-known/openid-configuration",
  );

  // delete needs the typed name
  await page.getByRole("button", { name: "Delete app" }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm.getByRole("button", { name: "Delete app" })).toBeDisabled();
  await confirm.getByLabel("Type Web shop to confirm").fill("Web shop");
  await confirm.getByRole("button", { name: "Delete app" }).click();
  await expect(page).toHaveURL(/\/console\/sandbox\/apps$/);
  expect(
    (await request.get("/api/sandbox/v1/providers", { headers: basic(clientId, rotated) })).status(),
  ).toBe(401);
});

test("the session API refuses cross-site writes (no Origin, foreign Origin) and allows the console's own", async ({
  page,
}) => {
  const user = await consoleUser("csrf");
  await signIn(page, user.email, user.password);
  const origin = new URL(page.url()).origin;
  const none = await page.request.post("/api/sandbox/v1/apps", {
    data: { name: "x" },
    headers: { Origin: "" },
  });
  expect(none.status()).toBe(403);
  const foreign = await page.request.post("/api/sandbox/v1/apps", {
    data: { name: "x" },
    headers: { Origin: "https://attacker.example" },
  });
  expect(foreign.status()).toBe(403);
  expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("CSRF_ORIGIN_MISMATCH");
  const own = await page.request.post("/api/sandbox/v1/apps", {
    data: { name: "Mine" },
    headers: { Origin: origin },
  });
  expect(own.status()).toBe(201);
  // reads need no Origin
  expect((await page.request.get("/api/sandbox/v1/apps?limit=5&offset=0")).status()).toBe(200);
});

test("sign out of all sessions from the account menu: another browser's session ends too", async ({
  page,
  browser,
}, testInfo) => {
  const user = await consoleUser("everywhere");
  await signIn(page, user.email, user.password);
  const otherBrowser = await browser.newContext();
  try {
    const other = await otherBrowser.newPage();
    await signIn(other, user.email, user.password);
    expect((await other.request.get("/api/sandbox/v1/me")).status()).toBe(200);

    await page.getByRole("button", { name: /Account menu/ }).click();
    await page.getByRole("button", { name: "Sign out of all sessions" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign out of all sessions" });
    await expect(dialog.getByText("on every device")).toBeVisible();
    await checkLayouts(page, testInfo, "sign-out-everywhere");
    await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
    await expect(page.getByText("You signed out of all sessions")).toBeVisible();

    // the other browser kept its cookie, but the session behind it has ended: the API refuses
    // it, and the console sends that browser to the sign-in page
    const refused = await other.request.get("/api/sandbox/v1/me");
    expect(refused.status()).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INVALID_SESSION");
    await other.getByRole("link", { name: "Apps" }).first().click();
    await expect(other).toHaveURL(/\/\?.*expired=1/);
    await expect(other.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
    await expect(other.getByText("Your session has ended")).toBeVisible();
  } finally {
    await otherBrowser.close();
  }
});

test("keyboard only: sign in and open an app from the list", async ({ page, request }) => {
  const user = await consoleUser("keyboard");
  await request.post("/api/sandbox/v1/apps", {
    headers: { Authorization: `Bearer ${user.keys.sandbox}` },
    data: { name: "Keyboard app" },
  });
  await page.goto("/");
  await page.getByLabel("Email").focus();
  await page.keyboard.type(user.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/console\/sandbox\//);
  await page.goto("/console/sandbox/apps");
  const link = page.getByRole("link", { name: "Keyboard app" });
  for (let i = 0; i < 40 && !(await link.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Keyboard app" })).toBeVisible();
});
