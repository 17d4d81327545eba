/**
 * The workflow editor's side panels against a real sandbox app: Test run (a passing identity and
 * the low-LoA one end differently and take different paths; the low-LoA run saved as a regression
 * case, "n/m cases pass"), What-if over sessions that ran through version 1 (one outcome would
 * change under version 2's minimum LoA), and History (versions listed, the diff of 1 → 2, restoring
 * version 1 as version 3, after which the case fails). Versions are saved over the API (PATCH), as
 * the editor's Save would. axe and 360 px on the page with a panel open.
 */
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { makeApp, startIntegrator, startSession, type TE2eApp } from "../hosted/support";
import { checkLayouts, consoleUser, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

const VERIFICATION = {
  id: "verification",
  type: "verification",
  next: "response",
  config: {
    channel: "oidc",
    claims: ["given_name", "family_name", "birthdate", "nationality"],
    mode: "pii",
    branding: { useAppBranding: true },
    providers: { passport: { enabled: true } },
  },
};

/** Version 1: request → verification → response (any LoA completes). */
const V1 = {
  name: "Shop onboarding",
  entryNodeId: "request",
  nodes: [
    { id: "request", type: "request", next: "verification" },
    VERIFICATION,
    { id: "response", type: "response" },
  ],
};

/** Version 2: a minimum LoA of 2 (substantial) between verification and response. */
const V2 = {
  name: "Shop onboarding",
  entryNodeId: "request",
  nodes: [
    { id: "request", type: "request", next: "verification" },
    { ...VERIFICATION, next: "min-loa" },
    { id: "min-loa", type: "check-min-loa", next: "response", config: { minLoa: 2 } },
    { id: "response", type: "response" },
  ],
};

const PASSING = "passport-anna-eriksson";
const LOW_LOA = "passport-low-loa";

async function sessionThrough(
  request: APIRequestContext,
  app: TE2eApp,
  workflowId: string,
  returnUrl: string,
  identity: string,
): Promise<string> {
  const { verificationId } = await startSession(request, app, {
    providerId: "passport",
    workflowId,
    redirect_uri: returnUrl,
  });
  const res = await request.post(`/api/sandbox/v1/sandbox/verifications/${verificationId}/simulate`, {
    headers: { Authorization: app.basic },
    data: { outcome: "success", identity },
  });
  expect(res.status(), await res.text()).toBe(200);
  return verificationId;
}

/** The side panel's tab (the editor may render tabs or plain buttons). */
async function openPanel(page: Page, name: string): Promise<void> {
  await page
    .getByRole("tab", { name, exact: true })
    .or(page.getByRole("button", { name, exact: true }))
    .first()
    .click();
}

/** The identity control: a list of the provider's test identities, or an id field as fallback. */
async function pickIdentity(panel: Locator, id: string): Promise<void> {
  const control = panel.getByLabel(/^Test identity/);
  if ((await control.evaluate((el) => el.tagName)) === "SELECT") await control.selectOption(id);
  else await control.fill(id);
}

test("workflow panels: test run, regression case, what-if over version 1, history diff and restore", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const owner = await consoleUser("workflow-panels");
  const integrator = await startIntegrator();
  try {
    const app = await makeApp(request, owner.keys.sandbox, integrator, {
      name: "Panels Shop",
      providers: ["passport"],
    });
    const workflows = `/api/sandbox/v1/apps/${app.clientId}/workflows`;
    const created = await request.post(workflows, { headers: bearer(owner.keys.sandbox), data: V1 });
    expect(created.status(), await created.text()).toBe(201);
    const { workflowId } = (await created.json()) as { workflowId: string };

    // three sessions through version 1: all complete (version 1 checks no LoA)
    await sessionThrough(request, app, workflowId, integrator.returnUrl, PASSING);
    await sessionThrough(request, app, workflowId, integrator.returnUrl, "passport-lukas-novak");
    const lowLoaSession = await sessionThrough(request, app, workflowId, integrator.returnUrl, LOW_LOA);

    // version 2 adds the minimum LoA (saved as the editor's Save would)
    const saved = await request.patch(`${workflows}/${workflowId}`, {
      headers: { ...bearer(owner.keys.sandbox), "If-Match": '"1"' },
      data: V2,
    });
    expect(saved.status(), await saved.text()).toBe(200);
    expect(saved.headers()["etag"]).toBe('"2"');

    await signIn(page, owner.email, owner.password);
    await page.goto(`/console/sandbox/apps/${app.clientId}/workflows/${workflowId}`);
    await expect(page.getByTestId("wf-node-min-loa")).toBeVisible();

    // --- Test run: a passing identity completes through min-loa
    await openPanel(page, "Test run");
    const testRun = page.getByTestId("test-run-panel");
    await expect(testRun.getByLabel("Provider")).toHaveValue("passport");
    await pickIdentity(testRun, PASSING);
    await testRun.getByRole("button", { name: "Run test" }).click();
    const result = testRun.getByTestId("test-run-result");
    await expect(result.getByTestId("test-run-outcome")).toContainText("Completed");
    const path = result.getByRole("list", { name: "Path taken" });
    await expect(path.getByRole("listitem")).toHaveText([/request/, /verification/, /min-loa/, /response/]);
    await expect(result.getByTestId("test-run-claims")).toContainText("Anna");
    await expect(page.getByTestId("wf-node-min-loa")).toContainText("passed");

    // the low-LoA identity fails at min-loa: another outcome, a shorter path
    await pickIdentity(testRun, LOW_LOA);
    await testRun.getByRole("button", { name: "Run test" }).click();
    await expect(result.getByTestId("test-run-outcome")).toContainText("Failed");
    await expect(result.getByTestId("test-run-outcome")).toContainText("loa_too_low");
    await expect(path.getByRole("listitem")).toHaveText([/request/, /verification/, /min-loa/]);
    await expect(page.getByTestId("wf-node-min-loa")).toContainText("failed");
    await checkLayouts(page, testInfo, "workflow-test-run");

    // saved as a regression case: expected "failed", and the draft passes it
    await testRun.getByLabel("Case name").fill("Low LoA is refused");
    await testRun.getByRole("button", { name: "Save as regression case" }).click();
    const cases = testRun.getByRole("list", { name: "Regression cases" });
    await expect(cases.getByTestId("regression-case")).toHaveCount(1);
    await expect(cases.getByTestId("regression-case")).toContainText("Low LoA is refused");
    await expect(testRun.getByTestId("cases-on-draft")).toContainText("1/1 cases pass");
    await expect(page.getByTestId("regression-summary")).toContainText("1/1 cases pass");

    // --- What-if: the sessions of version 1 replayed through the draft (version 2)
    await openPanel(page, "What-if");
    const whatIf = page.getByTestId("what-if-panel");
    await whatIf.getByRole("button", { name: "Run what-if" }).click();
    await expect(whatIf.getByTestId("what-if-total")).toHaveText("3");
    await expect(whatIf.getByTestId("what-if-outcomes")).toHaveText("1");
    await expect(whatIf.getByTestId("what-if-paths")).not.toHaveText("0");
    const example = whatIf.getByTestId("what-if-example").filter({ hasText: lowLoaSession });
    await expect(example).toContainText("Completed");
    await expect(example).toContainText("loa_too_low");
    await expect(example.getByRole("link", { name: lowLoaSession })).toHaveAttribute(
      "href",
      `/console/sandbox/verifications/${lowLoaSession}`,
    );
    await example
      .getByRole("button", { name: `Show the new path of ${lowLoaSession} on the canvas` })
      .click();
    await expect(
      example.getByRole("button", { name: `Show the new path of ${lowLoaSession} on the canvas` }),
    ).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("wf-node-min-loa")).toContainText("failed");

    // --- History: two versions, newest first; version 1 → 2 adds min-loa
    await openPanel(page, "History");
    const history = page.getByTestId("history-panel");
    await expect(history.getByTestId("version-row")).toHaveCount(2);
    await expect(history.getByTestId("version-row").first()).toContainText("Version 2");
    await expect(history.getByTestId("version-row").first()).toContainText("Latest");
    // the default comparison: the latest version against the draft
    await expect(history.getByTestId("version-diff")).toContainText("Version 2 → Current draft");
    await history.getByLabel("From").selectOption("1");
    await history.getByLabel("To").selectOption("2");
    const diff = history.getByTestId("version-diff");
    await expect(diff).toContainText("Version 1 → Version 2");
    await expect(diff.getByTestId("diff-counts")).toContainText("1 added, 0 removed, 1 changed");
    await expect(diff.getByTestId("diff-node").filter({ hasText: "(check-min-loa)" })).toContainText("Added");
    await expect(diff.getByTestId("diff-node").filter({ hasText: "(verification)" })).toContainText(
      "next: response → min-loa",
    );
    await expect(page.getByTestId("wf-node-min-loa")).toContainText("added");
    await checkLayouts(page, testInfo, "workflow-history");

    // restore version 1: confirmed in a dialog, saved as version 3, loaded into the editor
    await history.getByRole("button", { name: "Restore this version" }).click();
    const dialog = page.getByRole("dialog", { name: "Restore version 1?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(history.getByText("Version 1 restored as version 3.")).toBeVisible();
    await expect(history.getByTestId("version-row")).toHaveCount(3);
    await expect(page.getByTestId("wf-node-min-loa")).toHaveCount(0);
    // the restored version is the saved state: nothing left to save
    await expect(page.getByText("Unsaved changes", { exact: true })).toHaveCount(0);
    const reread = await request.get(`${workflows}/${workflowId}`, { headers: bearer(owner.keys.sandbox) });
    const workflow = (await reread.json()) as { version: number; nodes: { id: string }[] };
    expect(workflow.version).toBe(3);
    expect(workflow.nodes.map((n) => n.id)).toEqual(["request", "verification", "response"]);

    // without the minimum LoA the low-LoA case no longer holds
    await expect(page.getByTestId("regression-summary")).toContainText("0/1 cases pass");
    await openPanel(page, "Test run");
    await expect(testRun.getByTestId("cases-on-draft")).toContainText("the draft would break 1");

    // a real sandbox session through this workflow, opened in a new tab
    const [hosted] = await Promise.all([
      page.context().waitForEvent("page"),
      testRun.getByRole("button", { name: "Start a sandbox session" }).click(),
    ]);
    await hosted.waitForLoadState();
    const sessionId = new URL(hosted.url()).pathname.split("/").pop()!;
    expect(sessionId).toMatch(/^ver_/);
    const activity = await request.get(`/api/sandbox/v1/verifications/${sessionId}/activity`, {
      headers: bearer(owner.keys.sandbox),
    });
    expect(
      ((await activity.json()) as { verification: { workflowId: string; workflowVersion: number } })
        .verification,
    ).toMatchObject({ workflowId, workflowVersion: 3 });
    await hosted.close();

    // set as default in the list: sessions started without a workflowId now run it
    await page
      .getByRole("navigation", { name: "App sections" })
      .getByRole("link", { name: "Workflows" })
      .click();
    await page.getByRole("button", { name: "Set as default (Shop onboarding)" }).click();
    await expect(page.getByRole("row", { name: /Shop onboarding/ })).toContainText("Default");
    await expect
      .poll(async () => {
        const res = await request.get(`/api/sandbox/v1/apps/${app.clientId}`, {
          headers: bearer(owner.keys.sandbox),
        });
        return ((await res.json()) as { defaultWorkflowId: string }).defaultWorkflowId;
      })
      .toBe(workflowId);
    const plain = await startSession(request, app, {
      providerId: "passport",
      redirect_uri: integrator.returnUrl,
    });
    const done = await request.post(
      `/api/sandbox/v1/sandbox/verifications/${plain.verificationId}/simulate`,
      {
        headers: { Authorization: app.basic },
        data: { outcome: "success", identity: PASSING },
      },
    );
    expect((await done.json()) as { workflowId: string; status: string }).toMatchObject({
      workflowId,
      status: "completed",
    });
  } finally {
    await integrator.close();
  }
});
