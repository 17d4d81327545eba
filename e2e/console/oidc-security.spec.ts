/**
 * An app's OpenID Connect security settings on its Overview, as a new integrator goes through them:
 * private_key_jwt without keys is refused at the field, a private key in the JWK Set is refused
 * naming the key and member, a public JWK Set is saved, the FAPI 2.0 profile is switched on with the
 * keyboard only and locks PAR, DPoP and PKCE on, and everything is what the API then answers and
 * what a reload shows. axe and screenshots at 360 px and 1440 px.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { exportJWK, generateKeyPair } from "jose";
import { expectAxeClean, consoleUser, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** axe, no sideways scroll, and a full-page screenshot at each width. */
async function checkWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 900 });
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

test("OpenID Connect security: private_key_jwt with a JWK Set, then FAPI 2.0 by keyboard", async ({
  page,
  request,
}, testInfo) => {
  const owner = await consoleUser("oidc-security");
  const key = owner.keys.sandbox;
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(key),
    data: { name: "Bank" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  const stored = async () =>
    (await (
      await request.get(`/api/sandbox/v1/apps/${clientId}`, { headers: bearer(key) })
    ).json()) as Record<string, unknown>;
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: "bank-signing-1", use: "sig" };
  const privateJwk = { ...(await exportJWK(privateKey)), kid: "oops" };

  await signIn(page, owner.email, owner.password);
  await page.goto(`/console/sandbox/apps/${clientId}`);
  const section = page.locator("section", {
    has: page.getByRole("heading", { name: "OpenID Connect security" }),
  });
  const standard = section.getByRole("radio", { name: "Standard" });
  const fapi2 = section.getByRole("radio", { name: "FAPI 2.0 Security Profile" });
  const secretBasic = section.getByRole("radio", { name: "Client secret (HTTP Basic)" });
  const keyJwt = section.getByRole("radio", { name: "Private key JWT" });
  const par = section.getByRole("checkbox", { name: "Require pushed authorization requests (PAR)" });
  const dpop = section.getByRole("checkbox", { name: "Require DPoP" });
  const pkce = section.getByRole("checkbox", { name: "Require PKCE" });
  const jwks = section.getByRole("textbox", { name: "JWK Set", exact: true });
  const save = section.getByRole("button", { name: "Save" });
  const configuration = section.getByLabel("Client configuration");
  const savedState = section.getByText("Saved", { exact: true });
  const unsaved = section.getByText("Unsaved changes");

  // a new app: standard profile, client secret, PKCE only; nothing to save yet
  await expect(standard).toBeChecked();
  await expect(secretBasic).toBeChecked();
  await expect(pkce).toBeChecked();
  await expect(par).not.toBeChecked();
  await expect(dpop).not.toBeChecked();
  await expect(save).toBeDisabled();
  await expect(configuration).toContainText(`"issuer": "http://127.0.0.1:`);
  await expect(configuration).toContainText("/oidc/sandbox/par");
  await expect(configuration).toContainText(`"client_id": "${clientId}"`);
  await checkWidths(page, testInfo, "oidc-security-new");

  // private_key_jwt without keys: the API's refusal at the field, nothing saved
  await keyJwt.check();
  await expect(unsaved).toBeVisible();
  await save.click();
  const authentication = section.getByRole("group", { name: "Client authentication" });
  await expect(authentication.getByRole("alert")).toContainText(/jwks/);
  expect((await stored()).tokenEndpointAuthMethod).toBe("client_secret_basic");

  // a private key pasted by mistake: refused, naming the key and the member
  await jwks.fill(JSON.stringify({ keys: [privateJwk] }));
  await save.click();
  await expect(jwks).toHaveAttribute("aria-invalid", "true");
  const jwksError = section.locator(`#${await jwks.getAttribute("id")}-error`);
  await expect(jwksError).toContainText(/Key 1|keys\[0\]/);
  await expect(jwksError).toContainText(/\bd\b/);
  expect((await stored()).jwks).toBeNull();
  await testInfo.attach("oidc-security-refused", {
    body: await section.screenshot(),
    contentType: "image/png",
  });

  // not JSON at all: said before anything is sent
  await jwks.fill('{"keys": [');
  await save.click();
  await expect(jwksError).toContainText("JWK Set is not valid JSON");

  // the public key: saved, and the save says so
  await jwks.fill(JSON.stringify({ keys: [publicJwk] }, null, 2));
  await save.click();
  await expect(page.getByText("OpenID Connect security saved")).toBeVisible();
  await expect(savedState).toBeVisible();
  await expect(save).toBeDisabled();
  expect(await stored()).toMatchObject({
    tokenEndpointAuthMethod: "private_key_jwt",
    jwks: { keys: [publicJwk] },
    jwksUri: null,
    oidcProfile: "default",
  });
  await expect(configuration).toContainText(`"token_endpoint_auth_method": "private_key_jwt"`);

  // FAPI 2.0 with the keyboard only: arrow onto the profile, tab to Save, Enter
  await standard.focus();
  await page.keyboard.press("ArrowDown");
  await expect(fapi2).toBeChecked();
  await expect(fapi2).toBeFocused();
  await expect(unsaved).toBeVisible();
  for (const locked of [par, dpop, pkce]) {
    await expect(locked).toBeChecked();
    await expect(locked).toBeDisabled();
  }
  await expect(secretBasic).toBeDisabled();
  await expect(section.getByText("Locked on by FAPI 2.0.")).toHaveCount(3);
  for (let i = 0; i < 20 && !(await save.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(save).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(unsaved).toBeHidden();
  await expect(savedState).toBeVisible();
  await expect(save).toBeDisabled();
  expect(await stored()).toMatchObject({
    oidcProfile: "fapi2",
    tokenEndpointAuthMethod: "private_key_jwt",
    requirePushedAuthorizationRequests: true,
    requireDpop: true,
    pkceRequired: true,
  });
  await expect(configuration).toContainText(`"dpop_bound_access_tokens": true`);

  // a reload shows what the server holds: FAPI 2.0, everything locked on, the key kept
  await page.reload();
  await expect(fapi2).toBeChecked();
  await expect(keyJwt).toBeChecked();
  for (const locked of [par, dpop, pkce]) {
    await expect(locked).toBeChecked();
    await expect(locked).toBeDisabled();
  }
  await expect(jwks).toHaveValue(/bank-signing-1/);
  await expect(save).toBeDisabled();
  await checkWidths(page, testInfo, "oidc-security-fapi2");
});
