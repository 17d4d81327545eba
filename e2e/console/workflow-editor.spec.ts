/**
 * The workflow editor as a new integrator meets it: the Workflows tab with the starter workflow
 * (default, cannot be deleted), a workflow built from blank — nodes dragged from the palette and
 * one added with the keyboard, connected by dragging handles and in the inspector, the
 * verification configured — saved, reloaded in the same places; an edge deleted and the error on
 * the right node; undo/redo; the outline; unsaved changes kept over a reload and guarded on
 * leaving; two browser contexts saving the same workflow get the conflict dialog. axe and 360 px.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { checkLayouts, consoleUser, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function createApp(request: APIRequestContext, key: string, name: string): Promise<string> {
  const res = await request.post("/api/sandbox/v1/apps", { headers: bearer(key), data: { name } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { clientId: string }).clientId;
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const edge = (page: Page, from: string, key: string) => page.getByTestId(`rf__edge-${from}:${key}`);

/** Waits until the canvas stops moving (Tidy up and fit view animate the viewport). */
async function settled(page: Page) {
  const transform = () =>
    page.evaluate(() => document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform ?? "");
  let before = await transform();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(100);
    const now = await transform();
    if (now === before) return;
    before = now;
  }
}

/** Drags from a node's source handle to another node's target handle (React Flow connects on mouse up). */
async function connect(page: Page, from: string, key: string, to: string) {
  await settled(page);
  const source = page.locator(`.react-flow__handle.source[data-nodeid="${from}"][data-handleid="${key}"]`);
  const target = page.locator(`.react-flow__handle.target[data-nodeid="${to}"]`);
  const a = (await source.boundingBox())!;
  const b = (await target.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
  await page.mouse.up();
  await expect(edge(page, from, key)).toHaveCount(1);
}

/** Node positions in flow coordinates (React Flow writes them as the node's translate). */
async function positions(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>(".react-flow__node")].map((n) => [
        n.dataset.id!,
        n.style.transform,
      ]),
    ),
  );
}

test("workflow editor: build from blank, save, reload, errors on nodes, undo/redo, outline", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const owner = await consoleUser("workflow-editor");
  const clientId = await createApp(request, owner.keys.sandbox, "Flow shop");
  await signIn(page, owner.email, owner.password);
  await page.goto(`/console/sandbox/apps/${clientId}`);
  await page
    .getByRole("navigation", { name: "App sections" })
    .getByRole("link", { name: "Workflows" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/apps/${clientId}/workflows$`));

  // the starter workflow: default, 3 nodes; deleting it is refused with the API's message
  const starter = page.getByRole("row", { name: /Default workflow/ });
  await expect(starter.getByText("Default", { exact: true })).toBeVisible();
  await expect(starter.getByRole("cell", { name: "3", exact: true })).toBeVisible();
  await checkLayouts(page, testInfo, "workflows-list");
  await starter.getByRole("button", { name: /^Delete/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog.getByRole("alert")).toContainText(/default/i);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // create from blank: the editor opens on an unsaved draft with a request and a response
  await page.getByRole("button", { name: "Create workflow" }).click();
  await dialog.getByLabel("Name").fill("Adults only");
  await expect(dialog.getByLabel("Blank")).toBeChecked();
  await dialog.getByRole("button", { name: "Create workflow" }).click();
  await expect(page).toHaveURL(/\/workflows\/new\?name=Adults/);
  const canvas = page.getByRole("application", { name: "Workflow canvas" });
  await expect(page.getByRole("group", { name: /^Request node request, entry/ })).toBeVisible();
  await expect(node(page, "response")).toBeVisible();

  // two nodes dragged from the palette, one added with the keyboard, one by pressing its button
  await page
    .getByRole("button", { name: "Add Verification" })
    .dragTo(canvas, { targetPosition: { x: 60, y: 60 } });
  await expect(node(page, "verification")).toBeVisible();
  await page
    .getByRole("button", { name: "Add Check minimum LoA" })
    .dragTo(canvas, { targetPosition: { x: 80, y: 260 } });
  await expect(node(page, "check-min-loa")).toBeVisible();
  await page.getByRole("button", { name: "Add If" }).focus();
  await page.keyboard.press("Enter");
  await expect(node(page, "if")).toBeVisible();
  const panel = page.getByRole("complementary", { name: "Side panel" });
  await expect(panel.getByRole("heading", { name: "If if" })).toBeVisible();
  await page.getByRole("button", { name: "Add Response" }).click();
  await expect(node(page, "response-2")).toBeVisible();

  // connect: handles dragged on the canvas, the else branch chosen in the inspector
  await page.getByRole("button", { name: "Tidy up" }).click();
  await connect(page, "request", "next", "verification");
  await connect(page, "verification", "next", "check-min-loa");
  await connect(page, "check-min-loa", "next", "if");
  await connect(page, "if", "then", "response");
  await node(page, "if").click();
  await panel.getByLabel(/^Else/).selectOption("response-2");
  await expect(edge(page, "if", "else")).toHaveCount(1);
  await panel.getByLabel("Claim", { exact: true }).selectOption("birthdate");
  await panel.getByLabel("Operator").selectOption("age_gte");
  await panel.getByLabel("Age (years)").fill("18");
  await expect(node(page, "if")).toContainText("birthdate age ≥ 18");

  // configure the verification node: channel, claims, providers limited to activated ones
  await node(page, "verification").click();
  await expect(panel.getByRole("heading", { name: "Verification verification" })).toBeVisible();
  await panel.getByLabel("Channel").selectOption("api");
  const claims = panel.getByRole("group", { name: "Claims" });
  for (const claim of ["given_name", "family_name", "birthdate", "nationality"])
    await claims.getByLabel(claim, { exact: true }).check();
  await expect(panel.getByRole("group", { name: "Providers" }).getByLabel(/\(passport\)/)).toBeChecked();
  await node(page, "check-min-loa").click();
  await panel.getByRole("spinbutton", { name: "Minimum LoA" }).fill("2");
  await expect(node(page, "verification")).toContainText("channel api · 4 claims");
  await expect(page.getByText("No problems found.")).toBeVisible();

  // save creates it; a reload shows the same graph in the same places
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/workflows\/wf_/);
  const workflowId = page.url().split("/workflows/")[1]!;
  await expect(page.getByText("All changes saved")).toBeVisible();
  const placed = await positions(page);
  await page.reload();
  await expect(node(page, "response-2")).toBeVisible();
  expect(await positions(page)).toEqual(placed);
  await expect(edge(page, "if", "else")).toHaveCount(1);
  const saved = await request.get(`/api/sandbox/v1/apps/${clientId}/workflows/${workflowId}`, {
    headers: bearer(owner.keys.sandbox),
  });
  const body = (await saved.json()) as {
    nodes: { id: string; config?: Record<string, unknown> }[];
    positions: Record<string, unknown>;
  };
  expect(body.nodes.find((n) => n.id === "verification")?.config).toMatchObject({
    channel: "api",
    claims: ["given_name", "family_name", "birthdate", "nationality"],
  });
  expect(Object.keys(body.positions).sort()).toEqual(
    ["check-min-loa", "if", "request", "response", "response-2", "verification"].sort(),
  );

  // delete an edge: the node that lost its link shows the problem
  const link = page.getByRole("group", { name: "next link from check-min-loa to if" });
  await link.focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Delete");
  await expect(link).toHaveCount(0);
  await expect(page.getByTestId("wf-node-issues-check-min-loa")).toBeVisible();
  await node(page, "check-min-loa").click();
  await expect(panel.getByLabel("Next node")).toHaveAttribute("aria-invalid", "true");

  // undo / redo, by keyboard and by button
  await page.keyboard.press("ControlOrMeta+z");
  await expect(link).toHaveCount(1);
  await expect(page.getByTestId("wf-node-issues-check-min-loa")).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+Shift+z");
  await expect(link).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(link).toHaveCount(1);
  await expect(page.getByText("All changes saved")).toBeVisible();

  // the outline: nodes in walk order with their links, each selectable
  await page.getByRole("group", { name: "View" }).getByRole("button", { name: "Outline" }).click();
  const outline = page.getByRole("list", { name: "Workflow outline" });
  await expect(outline.locator(":scope > li")).toHaveCount(6);
  await expect(outline.locator(":scope > li").first()).toContainText("Request request (entry)");
  await expect(outline.locator(":scope > li").nth(1)).toContainText("Verification verification");
  await outline.getByRole("button", { name: /^Check minimum LoA check-min-loa/ }).click();
  await expect(panel.getByRole("heading", { name: "Check minimum LoA check-min-loa" })).toBeVisible();
  await checkLayouts(page, testInfo, "workflow-outline");
  await page.getByRole("group", { name: "View" }).getByRole("button", { name: "Canvas" }).click();
  await expect(node(page, "request")).toBeVisible();
  await checkLayouts(page, testInfo, "workflow-editor");

  // unsaved changes survive a reload, and leaving asks first
  await page.getByLabel("Workflow name").fill("Adults only, draft");
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Restore changes" }).click();
  await expect(page.getByLabel("Workflow name")).toHaveValue("Adults only, draft");
  await page.getByRole("link", { name: "Workflows", exact: true }).first().click();
  await expect(dialog.getByRole("heading", { name: "Leave without saving?" })).toBeVisible();
  await dialog.getByRole("button", { name: "Stay" }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
});

test("two editors of one workflow: the later save gets the conflict dialog, not a lost update", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const owner = await consoleUser("workflow-conflict");
  const clientId = await createApp(request, owner.keys.sandbox, "Busy shop");
  const list = await request.get(`/api/sandbox/v1/apps/${clientId}/workflows`, {
    headers: bearer(owner.keys.sandbox),
  });
  const workflowId = ((await list.json()) as { workflowId: string }[])[0]!.workflowId;
  const url = `/console/sandbox/apps/${clientId}/workflows/${workflowId}`;
  const baseURL = testInfo.project.use.baseURL;
  const contexts = await Promise.all([browser.newContext({ baseURL }), browser.newContext({ baseURL })]);
  const [a, b] = await Promise.all(contexts.map((c) => c.newPage()));
  for (const page of [a!, b!]) {
    await signIn(page, owner.email, owner.password);
    await page.goto(url);
    await expect(node(page, "verification")).toBeVisible();
  }

  await a!.getByLabel("Workflow name").fill("Edited in A");
  await a!.getByRole("button", { name: "Save", exact: true }).click();
  await expect(a!.getByText("All changes saved")).toBeVisible();

  await b!.getByLabel("Workflow name").fill("Edited in B");
  await b!.getByRole("button", { name: "Save", exact: true }).click();
  const conflict = b!.getByRole("dialog");
  await expect(conflict.getByRole("heading", { name: "Someone else saved this workflow" })).toBeVisible();
  await conflict.getByRole("button", { name: "Reload theirs" }).click();
  await expect(conflict).toBeHidden();
  await expect(b!.getByLabel("Workflow name")).toHaveValue("Edited in A");

  const stored = await request.get(`/api/sandbox/v1/apps/${clientId}/workflows/${workflowId}`, {
    headers: bearer(owner.keys.sandbox),
  });
  expect(((await stored.json()) as { name: string }).name).toBe("Edited in A");

  // B edits on top of A's version and saves without conflict
  await b!.getByLabel("Workflow name").fill("Edited in B after A");
  await b!.getByRole("button", { name: "Save", exact: true }).click();
  await expect(b!.getByText("All changes saved")).toBeVisible();
  await Promise.all(contexts.map((c) => c.close()));
});
