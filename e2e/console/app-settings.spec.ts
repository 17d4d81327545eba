/**
 * An app's settings on its Overview: the default workflow, what is verified (type, minimum age,
 * claims from the node-type catalog) and the hosted-page branding; the API's refusal lands on the
 * field, and every saved value is what the API then answers. axe and 360 px.
 */
import { expect, test } from "@playwright/test";
import { checkLayouts, consoleUser, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

test("app settings: default workflow, verification type and claims, branding", async ({
  page,
  request,
}, testInfo) => {
  const owner = await consoleUser("settings");
  const key = owner.keys.sandbox;
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(key),
    data: { name: "Bar tab" },
  });
  const { clientId } = (await created.json()) as { clientId: string };
  const second = await request.post(`/api/sandbox/v1/apps/${clientId}/workflows`, {
    headers: bearer(key),
    data: {
      name: "Email only",
      entryNodeId: "start",
      nodes: [
        { id: "start", type: "request", next: "verify" },
        { id: "verify", type: "verification", next: "end", config: { channel: "api", claims: ["email"] } },
        { id: "end", type: "response" },
      ],
    },
  });
  expect(second.status()).toBe(201);
  const { workflowId } = (await second.json()) as { workflowId: string };
  const settings = async () =>
    (await (
      await request.get(`/api/sandbox/v1/apps/${clientId}/verification`, { headers: bearer(key) })
    ).json()) as Record<string, unknown>;

  await signIn(page, owner.email, owner.password);
  await page.goto(`/console/sandbox/apps/${clientId}`);
  const verified = page.locator("section", { has: page.getByRole("heading", { name: "What is verified" }) });
  await expect(verified.getByRole("checkbox", { name: /Birthdate/ })).toBeChecked();
  await checkLayouts(page, testInfo, "app-settings");

  // age verification without an age: the API's message on the field, nothing saved
  await verified.getByLabel("Verification type").selectOption("age_verification");
  await verified.getByLabel("Minimum age").fill("");
  await verified.getByRole("button", { name: "Save" }).click();
  const ageId = await verified.getByLabel("Minimum age").getAttribute("id");
  await expect(verified.locator(`#${ageId}-error`)).toContainText(
    "is required when mode is age_verification",
  );
  expect((await settings()).verification_type).toBe("identity");

  await verified.getByLabel("Minimum age").fill("21");
  for (const claim of [/Given name/, /Family name/, /Nationality/]) {
    await verified.getByRole("checkbox", { name: claim }).uncheck();
  }
  await verified.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Verification settings saved")).toBeVisible();
  expect(await settings()).toMatchObject({
    verification_type: "age_verification",
    minimum_age: 21,
    request_attributes: ["birthdate"],
  });

  // branding: the node's own name instead of the app's
  const branding = page.locator("section", {
    has: page.getByRole("heading", { name: "Hosted page branding" }),
  });
  await branding.getByLabel("Show the app's name and logo").uncheck();
  await branding.getByLabel("Name on the hosted pages").fill("Bar tab (18+)");
  await branding.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Branding saved")).toBeVisible();
  expect((await settings()).branding).toEqual({ useAppBranding: false, name: "Bar tab (18+)", logo: null });

  // the default workflow: the settings then follow the other workflow
  const defaults = page.locator("section", { has: page.getByRole("heading", { name: "Default workflow" }) });
  await defaults.getByLabel("Workflow").selectOption({ label: "Email only" });
  await defaults.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Default workflow saved")).toBeVisible();
  const app = await request.get(`/api/sandbox/v1/apps/${clientId}`, { headers: bearer(key) });
  expect(((await app.json()) as { defaultWorkflowId: string }).defaultWorkflowId).toBe(workflowId);
  await expect(verified.getByRole("checkbox", { name: /Email/ }).first()).toBeChecked();
  await expect(verified.getByRole("checkbox", { name: /Birthdate/ })).not.toBeChecked();
  await page.reload();
  await expect(verified.getByLabel("Verification type")).toHaveValue("identity");

  // PKCE: on for a new app, switched off with the keyboard, saved with the section's Save, kept on reload
  const oidc = page.locator("section", {
    has: page.getByRole("heading", { name: "OpenID Connect security" }),
  });
  const pkce = oidc.getByRole("checkbox", { name: /Require PKCE/ });
  await expect(pkce).toBeChecked();
  await pkce.focus();
  await page.keyboard.press("Space");
  await oidc.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("OpenID Connect security saved")).toBeVisible();
  const patched = await request.get(`/api/sandbox/v1/apps/${clientId}`, { headers: bearer(key) });
  expect(((await patched.json()) as { pkceRequired: boolean }).pkceRequired).toBe(false);
  await page.reload();
  await expect(pkce).not.toBeChecked();
});
