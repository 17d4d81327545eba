/**
 * Production tests between an integrator and an operator: the integrator requests tests through
 * the API; the operator finds them in the back-office (pending, oldest first), schedules one from
 * the list (the API's field error on its field first), and the integrator's console shows the
 * challenge; the operator fails another on its page with a required reason the integrator then
 * reads; the integrator takes part through the console's "Start challenge session" and the
 * request page shows the participation and the stamp. A third request decided by another
 * operator while its page was open shows the conflict. axe and 360 px on the list, the schedule
 * dialog and the request page.
 */
import {
  expect,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";
import { createWorkspace } from "../support/cli";
import { checkLayouts, signIn } from "../console/support";
import { bearer, createApp, makeOperator, operatorPage } from "./support";

/** Live views refresh every 5–10 s: a change shows within one or two refreshes. */
const LIVE = { timeout: 25_000 };

/** POST …/production-tests as an integrator's backend does; returns the request id. */
async function requestTest(
  request: APIRequestContext,
  key: string,
  clientId: string,
  title: string,
  maxStampClaims: number,
): Promise<string> {
  const res = await request.post(`/api/sandbox/v1/apps/${clientId}/production-tests`, {
    headers: bearer(key),
    data: { title, providerIds: ["passport"], maxStampClaims, targetPlatform: "web" },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { request: { id: string } }).request.id;
}

/** A datetime-local value `days` from now in the browser's (= this machine's) time zone. */
function localDateTime(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const card = (page: Page, title: string) => page.getByRole("article", { name: title });

/** The integrator's "Start challenge session" on a test's card, answered in the simulator. */
async function takePart(context: BrowserContext, item: Locator): Promise<string> {
  const opened = context.waitForEvent("page");
  await item.getByRole("button", { name: "Start challenge session" }).click();
  const hosted = await opened;
  await hosted.waitForURL(/\/verify\/ver_[0-9A-Za-z]+$/);
  const verificationId = new URL(hosted.url()).pathname.split("/").pop()!;
  const phone = await context.newPage();
  await phone.goto(`/sandbox/verify/${verificationId}?flow=qr`);
  await phone.getByTestId("sim-approve").click();
  await expect(phone.getByTestId("sim-done")).toBeVisible();
  await phone.close();
  await hosted.close();
  return verificationId;
}

test("back-office production tests: schedule from the queue, fail with a reason, stamps on the request page, conflicts", async ({
  browser,
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const integrator = await createWorkspace("backoffice-tests");
  const operator = await makeOperator("e2e-backoffice-pt");
  const key = integrator.keys.sandbox;
  const { clientId } = await createApp(request, key, "Stamp shop");
  const unique = Math.random().toString(36).slice(2, 8);
  const launch = `Launch ${unique}`;
  const second = `Second city ${unique}`;
  const launchId = await requestTest(request, key, clientId, launch, 2);
  const secondId = await requestTest(request, key, clientId, second, 5);

  // the operator finds both in the pending queue, oldest first
  const op = await operatorPage(browser, operator);
  await op
    .getByRole("navigation", { name: "Back-office" })
    .getByRole("link", { name: "Production tests" })
    .click();
  await expect(op.getByRole("heading", { name: "Production tests", level: 1 })).toBeVisible();
  await op.getByLabel("Client ID").fill(clientId);
  const rows = op.getByTestId("production-test-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(launch);
  await expect(rows.first()).toContainText(launchId);
  await expect(rows.first()).toContainText("Passport (NFC)");
  await expect(rows.first()).toContainText("Stamp shop");
  await expect(rows.nth(1)).toContainText(second);
  await checkLayouts(op, testInfo, "operator-production-tests");

  // Schedule from the row: the dialog says what it creates; a past end date is refused on its field
  await rows
    .first()
    .getByRole("button", { name: `Schedule ${launch}` })
    .click();
  const dialog = op.getByRole("dialog", { name: `Schedule “${launch}”` });
  await expect(dialog.getByTestId("schedule-creates")).toContainText(`titled “${launch}”`);
  await expect(dialog.getByTestId("schedule-creates")).toContainText("2 stamps are claimed");
  await dialog.getByLabel("Sponsor (JSON)").fill("{not json");
  await dialog.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(dialog.getByText('must be JSON, e.g. {"name": "Example Bank"}')).toBeVisible();
  await dialog.getByLabel("Sponsor (JSON)").fill('{"name": "Example Bank"}');
  await dialog.getByLabel("Ends").fill(localDateTime(-1));
  await dialog.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(dialog.getByText("must be in the future")).toBeVisible();
  await expect(dialog.getByLabel("Ends")).toHaveAttribute("aria-invalid", "true");
  await checkLayouts(op, testInfo, "operator-production-tests-schedule");
  await dialog.getByLabel("Ends").fill(localDateTime(30));
  await dialog.getByLabel("Description").fill("Come and try our new sign-up");
  await dialog.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(op.getByText(/^Scheduled: challenge chl_/)).toBeVisible();
  // the pending queue keeps only the second request
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(second);

  // the scheduled request: its page names the challenge
  await op.getByLabel("State").selectOption("scheduled");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link", { name: launch }).click();
  await expect(op).toHaveURL(new RegExp(`/operator/sandbox/production-tests/${launchId}$`));
  await expect(op.getByTestId("request-state")).toHaveText("Scheduled · running");
  const challengeId = (await op.getByTestId("challenge-id").innerText()).trim();
  expect(challengeId).toMatch(/^chl_/);
  await expect(op.getByTestId("request-challenge")).toContainText("Come and try our new sign-up");
  await expect(op.getByTestId("request-challenge")).toContainText("Example Bank");
  await expect(op.getByText("Nobody has taken part yet.")).toBeVisible();

  // the integrator's console shows the challenge
  await signIn(page, integrator.email, integrator.password);
  await page.goto(`/console/sandbox/apps/${clientId}/production-tests`);
  const launchCard = card(page, launch);
  await expect(launchCard.getByTestId("test-status")).toHaveText("Scheduled · running");
  await expect(launchCard).toContainText(challengeId);
  await expect(launchCard).toContainText("Come and try our new sign-up");

  // the operator fails the second request on its page; the reason is required
  await op.goto(`/operator/sandbox/production-tests?clientId=${clientId}`);
  await rows.filter({ hasText: second }).getByRole("link", { name: second }).click();
  await expect(op).toHaveURL(new RegExp(`/operator/sandbox/production-tests/${secondId}$`));
  await expect(op.getByTestId("request-state")).toHaveText("Pending");
  await checkLayouts(op, testInfo, "operator-production-test-pending");
  // keyboard only: the button, the reason, the submit
  await op.getByRole("button", { name: "Fail request" }).focus();
  await op.keyboard.press("Enter");
  await expect(op.getByText("Required: the integrator reads it")).toBeVisible();
  await expect(op.getByLabel("Reason")).toBeFocused();
  const reason = "Passport readers are being replaced this week.";
  await op.keyboard.type(reason);
  await op.keyboard.press("Tab");
  await expect(op.getByRole("button", { name: "Fail request" })).toBeFocused();
  await op.keyboard.press("Enter");
  await expect(op.getByTestId("request-state")).toHaveText("Failed");
  // the form went with the decision: focus is on the request's title, not lost to the page
  await expect(op.getByRole("heading", { name: second, level: 1 })).toBeFocused();
  await expect(op.getByTestId("request-failure-reason")).toHaveText(reason);
  await expect(op.getByRole("button", { name: "Fail request" })).toHaveCount(0);

  // the integrator reads the reason
  const secondCard = card(page, second);
  await expect(secondCard.getByTestId("test-status")).toHaveText("Failed", LIVE);
  await expect(secondCard.getByTestId("failure-reason")).toHaveText(reason);

  // the integrator takes part; the request page shows the participation and its stamp
  const verificationId = await takePart(context, launchCard);
  await expect(launchCard.getByTestId("stamp-progress")).toHaveText("1 of 2 (50%)", LIVE);
  await op.goto(`/operator/sandbox/production-tests/${launchId}`);
  await expect(op.getByTestId("request-participations")).toHaveText("1");
  await expect(op.getByTestId("request-claims")).toHaveText("1");
  await expect(op.getByTestId("request-progress")).toHaveText("50% of 2");
  await expect(
    op.getByRole("table", { name: "Stamps per provider" }).getByRole("row", { name: /Passport/ }),
  ).toContainText("1");
  const participation = op.getByTestId("participation-row");
  await expect(participation).toHaveCount(1);
  await expect(participation).toContainText(verificationId);
  await expect(participation).toContainText("Successful");
  await expect(participation).toContainText("Claimed");
  await op.getByLabel("Stamp", { exact: true }).selectOption("false");
  await expect(op.getByText("No participation matches this filter.")).toBeVisible();
  await op.getByLabel("Stamp", { exact: true }).selectOption("true");
  await expect(participation).toHaveCount(1);
  await checkLayouts(op, testInfo, "operator-production-test-scheduled");

  // another operator fails a request while this page shows it pending: the conflict is shown
  const third = `Third city ${unique}`;
  const thirdId = await requestTest(request, key, clientId, third, 1);
  await op.goto(`/operator/sandbox/production-tests/${thirdId}`);
  await expect(op.getByTestId("request-state")).toHaveText("Pending");
  const failed = await request.post(`/api/sandbox/v1/operator/production-tests/${thirdId}/fail`, {
    headers: bearer(operator.operatorKey),
    data: { reason: "Decided elsewhere" },
  });
  expect(failed.status(), await failed.text()).toBe(200);
  await op.getByRole("button", { name: "Schedule", exact: true }).click();
  const conflict = op.getByTestId("production-test-conflict");
  await expect(conflict).toContainText("Another operator decided this request first.");
  await expect(conflict).toContainText("is failed; only pending requests can be scheduled");
  await expect(op.getByTestId("request-state")).toHaveText("Failed");
  await expect(op.getByTestId("request-failure-reason")).toHaveText("Decided elsewhere");
  await op.context().close();
});
