/**
 * An app's Production tests tab: requesting a test (the API's field errors on the form), seeing
 * it pending, an operator scheduling it through the Operator API (the challenge appears on its
 * own), starting a challenge session, an operator failing another request with a reason the page
 * shows; and, in the sandbox rehearsal where the simulator stands in for the provider, taking part
 * until the challenge completes, the progress and report following each session.
 * Production sessions need a real provider (IDV_UPSTREAM_OIDC), which the e2e server does not
 * configure: there the spec checks the session's hosted page, and completes sessions in the
 * sandbox, where production tests run the same way. axe and 360 px screenshots on every state.
 */
import {
  expect,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";
import { connectProductionProvider } from "../operator/support";
import { idv } from "../support/cli";
import { checkLayouts, consoleUser, signIn } from "./support";

type Env = "sandbox" | "production";

/** Live views refresh every 5 s: an operator's decision shows within one or two refreshes. */
const LIVE = { timeout: 20_000 };

async function makeOperator(): Promise<string> {
  const unique = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const out = await idv([
    "operator",
    "create",
    "--email",
    `e2e-operator-${unique}@example.test`,
    "--password",
    `Operator-password-${unique}`,
    "--json",
  ]);
  const { operatorKey } = JSON.parse(out.trim()) as { operatorKey: string };
  expect(operatorKey).toMatch(/^sk_operator_/);
  return operatorKey;
}

async function createApp(request: APIRequestContext, env: Env, key: string, name: string): Promise<string> {
  const res = await request.post(`/api/${env}/v1/apps`, {
    headers: { Authorization: `Bearer ${key}` },
    data: { name },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { clientId: string }).clientId;
}

/** The request id of the app's test titled `title`, as an operator finds it in the queue. */
async function pendingRequestId(
  request: APIRequestContext,
  env: Env,
  operatorKey: string,
  clientId: string,
  title: string,
): Promise<string> {
  const res = await request.get(`/api/${env}/v1/operator/production-tests`, {
    headers: { Authorization: `Bearer ${operatorKey}` },
    params: { status: "pending", clientId },
  });
  expect(res.status(), await res.text()).toBe(200);
  const page = (await res.json()) as { data: { request: { id: string; payload: { title: string } } }[] };
  const found = page.data.find((i) => i.request.payload.title === title);
  expect(found, `a pending request titled ${title}`).toBeTruthy();
  return found!.request.id;
}

async function operatorAct(
  request: APIRequestContext,
  env: Env,
  operatorKey: string,
  requestId: string,
  action: "schedule" | "fail",
  body: Record<string, unknown>,
) {
  const res = await request.post(`/api/${env}/v1/operator/production-tests/${requestId}/${action}`, {
    headers: { Authorization: `Bearer ${operatorKey}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { challenge: { id: string } | null };
}

async function requestTest(
  page: Page,
  { title, stamps, platform }: { title: string; stamps: string; platform?: string },
): Promise<void> {
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Passport (NFC)").check();
  await page.getByLabel("Stamps needed").fill(stamps);
  if (platform) await page.getByLabel("Target platform").selectOption(platform);
  await page.getByRole("button", { name: "Request test" }).click();
  await expect(page.getByText(`“${title}” requested: an operator will schedule it`)).toBeVisible();
}

const card = (page: Page, title: string) => page.getByRole("article", { name: title });

/**
 * Presses "Start challenge session" on a test's card: the session's hosted page opens in a new
 * tab (its id is read from there, so an earlier session's notice cannot be mistaken for it) and
 * the card names the session.
 */
async function startChallengeSession(
  context: BrowserContext,
  item: Locator,
): Promise<{ verificationId: string; hosted: Page }> {
  const opened = context.waitForEvent("page");
  await item.getByRole("button", { name: "Start challenge session" }).click();
  const hosted = await opened;
  await hosted.waitForURL(/\/verify\/ver_[0-9A-Za-z]+$/);
  const verificationId = new URL(hosted.url()).pathname.split("/").pop()!;
  await expect(item.getByTestId("challenge-session")).toContainText(`Started ${verificationId}`);
  return { verificationId, hosted };
}

test("production: request a test, an operator schedules it, start a challenge session, another request fails with a reason", async ({
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await consoleUser("production tests");
  const operatorKey = await makeOperator();
  // a production session needs a connected provider (issue 24)
  await connectProductionProvider(request, operatorKey, "passport");
  const clientId = await createApp(request, "production", user.keys.production, "Live Shop");

  await signIn(page, user.email, user.password);
  await page.goto(`/console/production/apps/${clientId}/production-tests`);
  await expect(
    page.getByRole("navigation", { name: "App sections" }).getByRole("link", { name: "Production tests" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "What is a production test?" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What happens next" })).toBeVisible();
  await expect(page.getByTestId("sandbox-rehearsal")).toHaveCount(0);
  await expect(page.getByText("No production tests yet")).toBeVisible();
  // the form is complete once the app's providers have loaded
  await expect(page.getByRole("checkbox", { name: /Passport/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Request test" })).toBeEnabled();
  await checkLayouts(page, testInfo, "production-tests-empty");

  // the API's validation lands on its field: no provider chosen
  await page.getByLabel("Title", { exact: true }).fill("Launch in Berlin");
  await page.getByLabel("Stamps needed").fill("3");
  await page.getByLabel("Target platform").selectOption("Web");
  await page.getByRole("button", { name: "Request test" }).click();
  await expect(page.getByRole("group", { name: "Providers to test" }).getByRole("alert")).toHaveText(
    "must contain at least 1 provider",
  );

  await requestTest(page, { title: "Launch in Berlin", stamps: "3", platform: "Web" });
  const launch = card(page, "Launch in Berlin");
  await expect(launch.getByTestId("test-status")).toHaveText("Pending");
  await expect(launch).toContainText("Waiting for an operator");
  await expect(launch).toContainText("Passport (NFC)");
  await expect(launch).toContainText("Web");
  // the form is ready for the next request
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("");
  await checkLayouts(page, testInfo, "production-tests-pending");

  // the operator schedules it: the page follows without a reload
  const launchId = await pendingRequestId(request, "production", operatorKey, clientId, "Launch in Berlin");
  const scheduled = await operatorAct(request, "production", operatorKey, launchId, "schedule", {
    description: "Come and try our new sign-up",
  });
  const challengeId = scheduled.challenge!.id;
  await expect(launch.getByTestId("test-status")).toHaveText("Scheduled · running", LIVE);
  await expect(launch).toContainText(challengeId);
  await expect(launch).toContainText("Come and try our new sign-up");
  await expect(launch.getByTestId("stamp-progress")).toHaveText("0 of 3 (0%)");
  await expect(launch.getByRole("progressbar", { name: "Stamps claimed" })).toHaveAttribute(
    "aria-valuetext",
    "0 of 3 stamps claimed (0%)",
  );
  await expect(launch.getByRole("row", { name: /Passport \(NFC\)/ })).toContainText("0");
  await checkLayouts(page, testInfo, "production-tests-scheduled");

  // take part: a production session of the app for this challenge, its hosted page in a new tab
  const { verificationId, hosted } = await startChallengeSession(context, launch);
  await expect(hosted.getByTestId("provider-heading")).toContainText("Passport");
  await hosted.close();
  const started = launch.getByTestId("challenge-session");
  await expect(started.getByRole("link", { name: "open the verification page" })).toHaveAttribute(
    "href",
    new RegExp(`/verify/${verificationId}$`),
  );
  // the real provider finishes production sessions; until then the challenge counts nothing
  const status = (await (await request.get(`/verify/${verificationId}/status`)).json()) as { status: string };
  expect(["awaiting_user_action", "authenticating"]).toContain(status.status);
  const report = await request.get(
    `/api/production/v1/apps/${clientId}/production-tests/${challengeId}/report`,
    { headers: { Authorization: `Bearer ${user.keys.production}` } },
  );
  expect(((await report.json()) as { stats: unknown }).stats).toEqual({
    totalParticipations: 0,
    totalClaims: 0,
    providerBreakdown: [{ providerId: "passport", providerName: "Passport (NFC)", claimCount: 0 }],
  });

  // a second request, refused by an operator with a reason the integrator reads here
  await requestTest(page, { title: "Second city", stamps: "5" });
  const second = card(page, "Second city");
  await expect(second.getByTestId("test-status")).toHaveText("Pending");
  const secondId = await pendingRequestId(request, "production", operatorKey, clientId, "Second city");
  await operatorAct(request, "production", operatorKey, secondId, "fail", {
    reason: "Passport readers are being replaced this week.",
  });
  await expect(second.getByTestId("test-status")).toHaveText("Failed", LIVE);
  await expect(second.getByTestId("failure-reason")).toHaveText(
    "Passport readers are being replaced this week.",
  );
  await expect(second.getByRole("button", { name: "Start challenge session" })).toHaveCount(0);
  // newest first
  await expect(page.getByTestId("production-test").first()).toContainText("Second city");
  await checkLayouts(page, testInfo, "production-tests-failed");
});

test("sandbox rehearsal: take part through the simulator until every stamp is claimed", async ({
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const user = await consoleUser("production tests sandbox");
  const operatorKey = await makeOperator();
  const clientId = await createApp(request, "sandbox", user.keys.sandbox, "Rehearsal Shop");

  await signIn(page, user.email, user.password);
  await page.goto(`/console/sandbox/apps/${clientId}/production-tests`);
  await expect(page.getByTestId("sandbox-rehearsal")).toContainText("Sandbox: a rehearsal.");
  await expect(page.getByRole("link", { name: "Go to your production apps" })).toHaveAttribute(
    "href",
    "/console/production/apps",
  );
  await requestTest(page, { title: "Dress rehearsal", stamps: "2" });
  const rehearsal = card(page, "Dress rehearsal");
  await expect(rehearsal.getByTestId("test-status")).toHaveText("Pending");

  const requestId = await pendingRequestId(request, "sandbox", operatorKey, clientId, "Dress rehearsal");
  const { challenge } = await operatorAct(request, "sandbox", operatorKey, requestId, "schedule", {});
  await expect(rehearsal.getByTestId("test-status")).toHaveText("Scheduled · running", LIVE);
  await expect(rehearsal.getByTestId("stamp-progress")).toHaveText("0 of 2 (0%)");

  /** Starts a challenge session from the card and answers it in the simulator (the phone's side). */
  async function takePart(outcome: "sim-approve" | "sim-decline"): Promise<string> {
    const { verificationId, hosted } = await startChallengeSession(context, rehearsal);
    const phone = await context.newPage();
    await phone.goto(`/sandbox/verify/${verificationId}?flow=qr`);
    await phone.getByTestId(outcome).click();
    await expect(phone.getByTestId("sim-done")).toBeVisible();
    await phone.close();
    await hosted.close();
    return verificationId;
  }

  await takePart("sim-approve");
  await expect(rehearsal.getByTestId("stamp-progress")).toHaveText("1 of 2 (50%)", LIVE);
  await expect(rehearsal.getByRole("progressbar", { name: "Stamps claimed" })).toHaveAttribute(
    "aria-valuenow",
    "1",
  );
  await expect(rehearsal.getByRole("row", { name: /Passport \(NFC\)/ })).toContainText("100%");
  await checkLayouts(page, testInfo, "production-tests-sandbox-progress");

  // a declined verification is a participation without a stamp
  await takePart("sim-decline");
  await expect(rehearsal.getByTestId("participations")).toHaveText("2", LIVE);
  await expect(rehearsal.getByTestId("stamp-progress")).toHaveText("1 of 2 (50%)");
  await expect(rehearsal.getByTestId("claims")).toHaveText("1");

  await takePart("sim-approve");
  await expect(rehearsal.getByTestId("test-status")).toHaveText("Completed", LIVE);
  await expect(rehearsal.getByTestId("stamp-progress")).toHaveText("2 of 2 (100%)");
  await expect(rehearsal).toContainText("every stamp was claimed");
  // a finished challenge takes no more sessions
  await expect(rehearsal.getByRole("button", { name: "Start challenge session" })).toHaveCount(0);
  await checkLayouts(page, testInfo, "production-tests-sandbox-completed");

  const report = await request.get(
    `/api/sandbox/v1/apps/${clientId}/production-tests/${challenge!.id}/report`,
    { headers: { Authorization: `Bearer ${user.keys.sandbox}` } },
  );
  const body = (await report.json()) as { challenge: { isActive: boolean }; stats: unknown };
  expect(body.challenge.isActive).toBe(false);
  expect(body.stats).toEqual({
    totalParticipations: 3,
    totalClaims: 2,
    providerBreakdown: [{ providerId: "passport", providerName: "Passport (NFC)", claimCount: 2 }],
  });
});
