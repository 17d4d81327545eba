/**
 * The back-office's read-only overview pages. Two workspaces made with the CLI, one with an app,
 * a sandbox session and a DigiD registration: an operator finds the workspace by a member's email
 * on the Workspaces page, opens it and sees its members, its app, the session count and the
 * ticket of the registration (linked to the ticket page). An operator action taken through the
 * Operator API with the operator's key (start review) is in the Audit log, filtered by operator
 * and by action (exact and prefix), its ticket linked. A workspace user gets the 403 page on both
 * pages and a 403 from their endpoints. "Sign out of all sessions" in the back-office's account
 * menu ends the operator's session in another browser too. axe and 360 px on every page.
 */
import { expect, test } from "@playwright/test";
import { createWorkspace } from "../support/cli";
import { checkLayouts, signIn } from "../console/support";
import { bearer, createApp, makeOperator, operatorPage } from "./support";

const DIGID_VALUES = {
  legalCompanyName: "Overview Shop GmbH",
  registrationNumber: "HRB 654321",
  serviceDescription: "Online account opening for a regulated investment platform (AML identification).",
  displayName: "Overview Shop",
  contactEmail: "compliance@example.com",
  userDataLevel: "basic",
  privacyPolicyUrl: "https://example.com/privacy",
};

test("back-office overview: workspaces searched by member email, a workspace's apps and tickets, operator audit log; 403 for workspace users", async ({
  browser,
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const [busy, quiet, operator] = await Promise.all([
    createWorkspace("overview-busy"),
    createWorkspace("overview-quiet"),
    makeOperator("e2e-overview"),
  ]);

  // workspace "busy": an app, one sandbox session (passport is active from the start) and a
  // DigiD registration waiting for review
  const app = await createApp(request, busy.keys.sandbox, "Overview shop");
  const session = await request.post("/api/sandbox/v1/verifications", {
    headers: { Authorization: app.basic },
    data: { providerId: "passport" },
  });
  expect(session.status(), await session.text()).toBe(201);
  const submitted = await request.post(`/api/sandbox/v1/apps/${app.clientId}/activation`, {
    headers: bearer(busy.keys.sandbox),
    data: { providers: { nl_digid: DIGID_VALUES } },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  const [entry] = (await submitted.json()) as { activation: { id: string } }[];
  const ticketId = entry!.activation.id;

  // an operator action through the Operator API with the operator's key: start review
  const reviewed = await request.post(`/api/sandbox/v1/operator/activations/${ticketId}/review`, {
    headers: bearer(operator.operatorKey),
  });
  expect(reviewed.status(), await reviewed.text()).toBe(200);

  const op = await operatorPage(browser, operator);

  // --- Workspaces: search by a member's email finds the one workspace
  await op.getByRole("navigation", { name: "Back-office" }).getByRole("link", { name: "Workspaces" }).click();
  await expect(op).toHaveURL(/\/operator\/sandbox\/workspaces$/);
  await expect(op.getByRole("heading", { name: "Workspaces", level: 1 })).toBeVisible();
  const search = op.getByRole("searchbox", { name: "Search", exact: true });
  await search.fill(busy.email);
  await search.press("Enter");
  await expect(op).toHaveURL(/[?&]search=/);
  const rows = op.getByTestId("workspace-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(busy.workspaceId);
  await expect(rows.first()).toContainText("1 sandbox");
  await expect(rows.first().getByTestId("workspace-row-sessions")).toHaveText("1");
  await expect(op.getByText(quiet.workspaceId)).toHaveCount(0);
  await checkLayouts(op, testInfo, "operator-workspaces");

  // the quiet workspace is found by its id: no app, no session
  await search.fill(quiet.workspaceId);
  await search.press("Enter");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(quiet.workspaceId);
  await expect(rows.first().getByTestId("workspace-row-sessions")).toHaveText("0");
  await expect(op.getByText(busy.workspaceId)).toHaveCount(0);

  // --- the busy workspace's page: members, the app, the session count, the ticket
  await search.fill(busy.email);
  await search.press("Enter");
  await expect(rows.first()).toContainText(busy.workspaceId);
  await rows.first().getByRole("link").click();
  await expect(op).toHaveURL(new RegExp(`/operator/sandbox/workspaces/${busy.workspaceId}$`));
  await expect(op.getByRole("heading", { level: 1 })).toContainText("E2E overview-busy");
  await expect(op.getByTestId("workspace-member")).toContainText([busy.email]);
  await expect(op.getByTestId("workspace-sessions")).toHaveText("1");
  await expect(op.getByTestId("workspace-members")).toHaveText("1");
  const appSection = op.getByTestId(`workspace-app-${app.clientId}`);
  await expect(appSection.getByRole("heading", { name: "Overview shop" })).toBeVisible();
  const digid = appSection.getByTestId("workspace-app-provider").filter({ hasText: "DigiD" });
  await expect(digid).toContainText("Under review");
  await checkLayouts(op, testInfo, "operator-workspace");
  await digid.getByRole("link", { name: new RegExp(ticketId) }).click();
  await expect(op).toHaveURL(new RegExp(`/operator/sandbox/activations/${ticketId}`));
  await expect(op.getByTestId("ticket-status")).toHaveText("Under review");

  // --- Audit log: the operator's start of review, filtered by operator and by action
  await op.getByRole("navigation", { name: "Back-office" }).getByRole("link", { name: "Audit log" }).click();
  await expect(op.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  await op.getByRole("button", { name: "Only my actions" }).click();
  await expect(op).toHaveURL(new RegExp(`[?&]operatorId=${operator.userId}`));
  const auditRows = op.getByTestId("operator-audit-row");
  await expect(auditRows).toHaveCount(1);
  await expect(auditRows.first()).toContainText("activation.review_started");
  await expect(auditRows.first()).toContainText(operator.email);
  await expect(auditRows.first()).toContainText(busy.workspaceId);
  await checkLayouts(op, testInfo, "operator-audit-log");

  const action = op.getByLabel("Action", { exact: true });
  await action.fill("production_test.*");
  await action.press("Enter");
  await expect(op).toHaveURL(/[?&]action=production_test/);
  await expect(op.getByText("No operator action matches these filters.")).toBeVisible();
  await action.fill("activation.*");
  await action.press("Enter");
  await expect(auditRows).toHaveCount(1);
  await action.fill("activation.approved");
  await action.press("Enter");
  await expect(op.getByText("No operator action matches these filters.")).toBeVisible();
  await action.fill("activation.review_started");
  await action.press("Enter");
  await expect(auditRows).toHaveCount(1);
  // a reload keeps the filters
  await op.reload();
  await expect(op.getByLabel("Action", { exact: true })).toHaveValue("activation.review_started");
  await expect(auditRows).toHaveCount(1);
  // the target is linked to its ticket page
  await auditRows.first().getByRole("link", { name: ticketId }).click();
  await expect(op).toHaveURL(new RegExp(`/operator/sandbox/activations/${ticketId}`));
  await op.context().close();

  // --- a workspace user: the 403 page on both pages, 403 from their endpoints
  await signIn(page, busy.email, busy.password);
  await page.goto("/operator/sandbox/workspaces");
  await expect(page.getByRole("heading", { name: "403 · Operators only" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Workspaces" })).toHaveCount(0);
  await expect(page.getByText(quiet.workspaceId)).toHaveCount(0);
  await page.goto(`/operator/sandbox/workspaces/${busy.workspaceId}`);
  await expect(page.getByRole("heading", { name: "403 · Operators only" })).toBeVisible();
  await page.goto("/operator/sandbox/audit-log");
  await expect(page.getByRole("heading", { name: "403 · Operators only" })).toBeVisible();
  expect((await page.request.get("/api/sandbox/v1/operator/workspaces")).status()).toBe(403);
  expect((await page.request.get("/api/sandbox/v1/operator/audit-events")).status()).toBe(403);
});

test("back-office: sign out of all sessions from the account menu ends the operator's other sessions", async ({
  browser,
}, testInfo) => {
  const operator = await makeOperator("e2e-everywhere");
  const page = await operatorPage(browser, operator);
  const other = await operatorPage(browser, operator);
  const activations = "/api/sandbox/v1/operator/activations?limit=1&offset=0";
  expect((await other.request.get(activations)).status()).toBe(200);

  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("button", { name: "Sign out of all sessions" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign out of all sessions" });
  await expect(dialog).toBeVisible();
  await checkLayouts(page, testInfo, "operator-sign-out-everywhere");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByText("You signed out of all sessions")).toBeVisible();

  const refused = await other.request.get(activations);
  expect(refused.status()).toBe(401);
  await other.reload();
  await expect(other).toHaveURL(/expired=1/);
  await expect(other.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
});
