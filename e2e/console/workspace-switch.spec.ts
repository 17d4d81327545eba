/**
 * A member of two workspaces switches between them from the account menu (issue 23 item 1): after
 * each switch, reached by the console's own links (no page load), Dashboard, Apps, Verifications,
 * API requests, API keys, Team and Audit log show the current workspace's data and never the
 * other's, its apps open, and another workspace's app says so in words meant for a console user.
 * The same member is a developer of the second workspace: there the production webhook signing
 * secret is a credential they do not see or rotate, while in the sandbox they do (item 4).
 * axe and screenshots at 360 px and wide of the open menu and of the production Webhooks tab.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { CreatedWorkspace } from "../support/cli";
import { makeApp, startIntegrator, startSession, type TE2eApp, type TIntegrator } from "../hosted/support";
import { checkLayouts, consoleUser, signIn } from "./support";

interface TSide {
  ws: CreatedWorkspace;
  name: string;
  app: TE2eApp;
  appName: string;
  verifications: string[];
  /** the members' emails, as the Team page lists them */
  members: string[];
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A workspace renamed to `name`, with one app and `sessions` verification sessions. */
async function makeSide(
  request: APIRequestContext,
  integrator: TIntegrator,
  ws: CreatedWorkspace,
  name: string,
  appName: string,
  sessions: number,
): Promise<TSide> {
  const renamed = await request.patch("/api/sandbox/v1/workspace", {
    headers: bearer(ws.keys.sandbox),
    data: { name },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);
  const app = await makeApp(request, ws.keys.sandbox, integrator, { name: appName, providers: ["passport"] });
  const verifications: string[] = [];
  for (let i = 0; i < sessions; i++) {
    verifications.push(
      (await startSession(request, app, { providerId: "passport", redirect_uri: integrator.returnUrl }))
        .verificationId,
    );
  }
  return { ws, name, app, appName, verifications, members: [ws.email] };
}

/** Follows a link of the console's navigation (client-side, as a user does). */
async function openSection(page: Page, label: string): Promise<void> {
  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: label, exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
}

/**
 * Nothing of `texts` on the page, now (no waiting: data kept from the other workspace would show
 * in the very first render), and still none once the page's own data has come.
 */
async function expectNoneOf(page: Page, texts: string[], loaded: () => Promise<void>): Promise<void> {
  const main = page.getByRole("main");
  for (const text of texts) expect(await main.getByText(text).count(), `${text} shown`).toBe(0);
  await loaded();
  for (const text of texts) await expect(main.getByText(text)).toHaveCount(0);
}

/** The account menu's workspace switch. */
async function switchWorkspace(page: Page, to: TSide): Promise<void> {
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("combobox", { name: "Workspace", exact: true }).selectOption(to.ws.workspaceId);
  await expect(page).toHaveURL(/\/console\/sandbox\/dashboard$/);
  await expect(page.getByTestId("workspace-name")).toHaveText(to.name);
}

/** Every list page shows `current`'s data and none of `other`'s; `current`'s app opens. */
async function expectEverywhere(page: Page, current: TSide, other: TSide): Promise<void> {
  const main = page.getByRole("main");
  const strangers = other.members.filter((email) => !current.members.includes(email));

  await openSection(page, "Dashboard");
  const appFilter = page.getByLabel("App", { exact: true });
  await expectNoneOf(page, [other.appName], async () => {
    await expect(page.getByTestId("total-created")).toHaveText(String(current.verifications.length));
    await expect(appFilter.getByRole("option", { name: current.appName })).toHaveCount(1);
  });
  await expect(appFilter.getByRole("option", { name: other.appName })).toHaveCount(0);

  await openSection(page, "Apps");
  await expectNoneOf(page, [other.appName, other.app.clientId], () =>
    expect(main.getByRole("link", { name: current.appName })).toBeVisible(),
  );

  await openSection(page, "Verifications");
  await expectNoneOf(page, [other.appName, ...other.verifications], async () => {
    const rows = page.getByTestId("verification-row");
    await expect(rows).toHaveCount(current.verifications.length);
    for (const id of current.verifications) await expect(rows.filter({ hasText: id })).toHaveCount(1);
  });

  await openSection(page, "API requests");
  await expectNoneOf(page, [other.app.clientId], () =>
    expect(page.getByTestId("request-row").filter({ hasText: current.app.clientId }).first()).toBeVisible(),
  );

  await openSection(page, "API keys");
  await expectNoneOf(page, [`${other.ws.keys.sandbox.slice(0, 22)}…`], () =>
    expect(main.getByText(`${current.ws.keys.sandbox.slice(0, 22)}…`)).toBeVisible(),
  );

  await openSection(page, "Team");
  await expectNoneOf(page, strangers, async () => {
    const members = page.getByRole("region", { name: "Members", exact: true });
    for (const email of current.members) {
      await expect(members.getByRole("row", { name: new RegExp(email) })).toBeVisible();
    }
  });

  await openSection(page, "Audit log");
  await expectNoneOf(page, [other.app.clientId], () =>
    expect(page.getByTestId("audit-row").filter({ hasText: current.app.clientId }).first()).toBeVisible(),
  );

  // an app of this workspace opens from the list
  await openSection(page, "Apps");
  await main.getByRole("link", { name: current.appName }).click();
  await expect(page).toHaveURL(new RegExp(`/console/sandbox/apps/${current.app.clientId}$`));
  await expect(main.getByRole("heading", { level: 1, name: current.appName })).toBeVisible();
}

test("switching workspace from the account menu shows the new workspace's data on every page, both ways", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const integrator = await startIntegrator();
  try {
    const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const alphaWs = await consoleUser("switch-alpha");
    const bravoWs = await consoleUser("switch-bravo");
    const alpha = await makeSide(request, integrator, alphaWs, `Alpha ${unique}`, `Alpha shop ${unique}`, 1);
    const bravo = await makeSide(request, integrator, bravoWs, `Bravo ${unique}`, `Bravo shop ${unique}`, 2);
    // alpha's owner joins bravo as a developer (the invitation link, accepted with their password)
    const invited = await request.post("/api/sandbox/v1/team/invitations", {
      headers: bearer(bravoWs.keys.sandbox),
      data: { email: alphaWs.email, role: "developer" },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    const token = ((await invited.json()) as { url: string }).url.split("/").pop();
    const accepted = await request.post("/api/sandbox/v1/invitations/accept", {
      data: { token, password: alphaWs.password },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);

    bravo.members.push(alphaWs.email);

    await signIn(page, alphaWs.email, alphaWs.password);
    // the oldest membership first
    await expect(page.getByTestId("workspace-name")).toHaveText(alpha.name);
    await page.getByRole("button", { name: /Account menu/ }).click();
    const select = page.getByRole("combobox", { name: "Workspace", exact: true });
    await expect(select).toHaveValue(alphaWs.workspaceId);
    await expect(select.getByRole("option", { name: `${bravo.name} (developer)` })).toHaveCount(1);
    await expect(select.getByRole("option", { name: `${alpha.name} (owner)` })).toHaveCount(1);
    await checkLayouts(page, testInfo, "workspace-switch-menu");
    await page.keyboard.press("Escape");
    await expect(select).toBeHidden();

    // every page visited (and so cached) in A, then…
    await expectEverywhere(page, alpha, bravo);

    // A → B: every page, reached by the console's links right after the switch
    await switchWorkspace(page, bravo);
    await expectEverywhere(page, bravo, alpha);
    // the other workspace's app, opened by its address, says so in a console user's words
    await page.goto(`/console/sandbox/apps/${alpha.app.clientId}`);
    await expect(page.getByRole("main")).toContainText("This app belongs to another workspace");
    await expect(page.getByRole("main")).not.toContainText("API key");
    await expect(page.getByText(alpha.appName)).toHaveCount(0);

    // B → A, and the pages follow again
    await switchWorkspace(page, alpha);
    await expectEverywhere(page, alpha, bravo);
    await switchWorkspace(page, bravo);
    await openSection(page, "Apps");
    await expect(page.getByRole("main").getByRole("link", { name: bravo.appName })).toBeVisible();
  } finally {
    await integrator.close();
  }
});

test("a developer sees a production webhook's settings but not its signing secret, and may not rotate it", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const owner = await consoleUser("secret-owner");
  const developer = await consoleUser("secret-developer");
  const ownerName = `Owner ${Date.now().toString(36)}`;
  expect(
    (
      await request.patch("/api/sandbox/v1/workspace", {
        headers: bearer(owner.keys.sandbox),
        data: { name: ownerName },
      })
    ).status(),
  ).toBe(200);
  const invited = await request.post("/api/sandbox/v1/team/invitations", {
    headers: bearer(owner.keys.sandbox),
    data: { email: developer.email, role: "developer" },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = ((await invited.json()) as { url: string }).url.split("/").pop();
  expect(
    (
      await request.post("/api/sandbox/v1/invitations/accept", {
        data: { token, password: developer.password },
      })
    ).status(),
  ).toBe(200);

  // a signed webhook in each environment, set up with the owner's keys
  const signedApp = async (env: "sandbox" | "production", key: string) => {
    const created = await request.post(`/api/${env}/v1/apps`, {
      headers: bearer(key),
      data: { name: `Hooks ${env}` },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { clientId } = (await created.json()) as { clientId: string };
    const base = `/api/${env}/v1/apps/${clientId}/webhook-config`;
    const patched = await request.patch(base, {
      headers: bearer(key),
      data: { url: "https://hooks.example.test/in", events: ["verification.completed"] },
    });
    expect(patched.status(), await patched.text()).toBe(200);
    const rotated = await request.post(`${base}/rotate-secret`, { headers: bearer(key) });
    expect(rotated.status(), await rotated.text()).toBe(200);
    return { clientId, secret: ((await rotated.json()) as { secret: string }).secret };
  };
  const live = await signedApp("production", owner.keys.production);
  const sandboxApp = await signedApp("sandbox", owner.keys.sandbox);

  await signIn(page, developer.email, developer.password);
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("combobox", { name: "Workspace", exact: true }).selectOption(owner.workspaceId);
  await expect(page.getByTestId("workspace-name")).toHaveText(ownerName);

  // production: the settings, that it is signed, and a note instead of Reveal and Rotate
  await page.goto(`/console/production/apps/${live.clientId}/webhooks`);
  await expect(page.getByLabel("Webhook URL")).toHaveValue("https://hooks.example.test/in");
  await expect(page.getByLabel("verification.completed")).toBeChecked();
  await expect(page.getByText(/Signing is on/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Reveal secret" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
  await expect(page.getByText("may not see or rotate it in production")).toBeVisible();
  await expect(page.getByText(live.secret)).toHaveCount(0);
  await checkLayouts(page, testInfo, "webhooks-production-developer");
  // and the API, asked with this session, agrees
  const asDeveloper = { "X-Workspace-Id": owner.workspaceId, Origin: new URL(page.url()).origin };
  const read = await page.request.get(`/api/production/v1/apps/${live.clientId}/webhook-config`, {
    headers: asDeveloper,
  });
  expect(read.status()).toBe(200);
  expect(await read.json()).toMatchObject({ signed: true, secretReadable: false });
  expect(await read.text()).not.toContain(live.secret);
  const rotate = await page.request.post(
    `/api/production/v1/apps/${live.clientId}/webhook-config/rotate-secret`,
    {
      headers: asDeveloper,
    },
  );
  expect(rotate.status()).toBe(403);

  // sandbox: the same developer reveals and may rotate
  await page.goto(`/console/sandbox/apps/${sandboxApp.clientId}/webhooks`);
  await expect(page.getByRole("button", { name: "Rotate secret" })).toBeVisible();
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByText(sandboxApp.secret)).toBeVisible();
});
