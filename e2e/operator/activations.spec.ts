/**
 * The back-office round trip between an integrator and an operator: the operator signs in on the
 * console's sign-in page and lands in the back-office; a registration the integrator submitted
 * through the API waits in the queue; the operator starts the review and rejects it with the
 * keyboard, the integrator's Providers tab shows the reason, the integrator resubmits, the
 * operator approves and the provider is activated. A workspace user gets the 403 page and a 403
 * from the Operator API with their session; two operators racing on one ticket: one wins, the
 * other sees the conflict. axe and 360 px on the queue and the ticket page.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createWorkspace } from "../support/cli";
import { checkLayouts, signIn } from "../console/support";
import { bearer, createApp, makeOperator, operatorPage } from "./support";

const DIGID_VALUES = {
  legalCompanyName: "Example Shop GmbH",
  registrationNumber: "HRB 123456",
  serviceDescription: "Online account opening for a regulated investment platform (AML identification).",
  displayName: "Example Shop",
  contactEmail: "compliance@example.com",
  userDataLevel: "basic",
  privacyPolicyUrl: "https://example.com/privacy",
};

async function submitDigid(request: APIRequestContext, key: string, clientId: string): Promise<string> {
  const res = await request.post(`/api/sandbox/v1/apps/${clientId}/activation`, {
    headers: bearer(key),
    data: { providers: { nl_digid: DIGID_VALUES } },
  });
  expect(res.status()).toBe(200);
  const [entry] = (await res.json()) as { activation: { id: string } }[];
  return entry!.activation.id;
}

/** Opens a ticket from the queue (filtered to DigiD), as an operator would find it. */
async function openFromQueue(page: Page, ticketId: string): Promise<void> {
  await page.goto("/operator/sandbox/activations");
  await page.getByLabel("Provider").selectOption({ label: "DigiD" });
  // the filter goes into the URL first: a click before that replace lands would be undone by it
  await expect(page).toHaveURL(/providerId=nl_digid/);
  await page.getByRole("link", { name: ticketId }).click();
  await expect(page).toHaveURL(new RegExp(`/operator/sandbox/activations/${ticketId}`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("DigiD for");
}

test("back-office: queue, review with the keyboard, reject, resubmit, approve; 403 for workspace users", async ({
  browser,
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const integrator = await createWorkspace("backoffice");
  const operator = await makeOperator("e2e-backoffice");
  const { clientId } = await createApp(request, integrator.keys.sandbox, "Back-office shop");
  const first = await submitDigid(request, integrator.keys.sandbox, clientId);

  // the operator signs in on the console's page and lands in the back-office
  const op = await operatorPage(browser, operator);
  await expect(op.getByRole("heading", { name: "Activations" })).toBeVisible();
  await op.getByLabel("Provider").selectOption({ label: "DigiD" });
  const row = op.getByTestId("ticket-row").filter({ hasText: first });
  await expect(row).toContainText("Back-office shop");
  await expect(row).toContainText("E2E backoffice");
  await expect(row).toContainText("registration");
  await checkLayouts(op, testInfo, "operator-queue");

  await openFromQueue(op, first);
  await expect(op.getByText("Example Shop GmbH").first()).toBeVisible();
  await checkLayouts(op, testInfo, "operator-ticket");

  // start review (s), reject with a reason (r, type, Ctrl+Enter)
  await op.keyboard.press("s");
  await expect(op.getByTestId("ticket-status")).toHaveText("Under review");
  await op.keyboard.press("r");
  await expect(op.getByLabel("Reason")).toBeFocused();
  const reason = "The privacy policy URL does not describe the DigiD use.";
  await op.keyboard.type(reason);
  await op.keyboard.press("Control+Enter");
  await expect(op.getByTestId("ticket-status")).toHaveText("Rejected");
  await expect(op.getByTestId("ticket-rejection-reason")).toHaveText(reason);

  // the integrator's console shows the reason
  await signIn(page, integrator.email, integrator.password);
  await page.goto(`/console/sandbox/apps/${clientId}/providers`);
  await expect(page.getByTestId("provider-nl_digid")).toContainText(reason);

  // the integrator resubmits; the operator approves (a); the provider is activated
  const second = await submitDigid(request, integrator.keys.sandbox, clientId);
  expect(second).not.toBe(first);
  await openFromQueue(op, second);
  await expect(op.getByText(first)).toBeVisible(); // the earlier ticket in the history
  await op.keyboard.press("s");
  await expect(op.getByTestId("ticket-status")).toHaveText("Under review");
  await op.keyboard.press("a");
  await expect(op.getByTestId("ticket-status")).toHaveText("Activated");
  const providers = await request.get(`/api/sandbox/v1/apps/${clientId}/providers?include=activation`, {
    headers: bearer(integrator.keys.sandbox),
  });
  const digid = ((await providers.json()) as { id: string; status: string }[]).find(
    (p) => p.id === "nl_digid",
  );
  expect(digid?.status).toBe("activated");
  await page.reload();
  await expect(page.getByTestId("provider-nl_digid").getByText("activated", { exact: true })).toBeVisible();

  // a workspace user: the 403 page, and 403 from the Operator API with their session
  await page.goto("/operator/sandbox/activations");
  await expect(page.getByRole("heading", { name: "403 · Operators only" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Activations" })).toHaveCount(0);
  const refused = await page.request.get("/api/sandbox/v1/operator/activations");
  expect(refused.status()).toBe(403);
  const refusedWrite = await page.request.post(`/api/sandbox/v1/operator/activations/${second}/approve`, {
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(refusedWrite.status()).toBe(403);
  await checkLayouts(page, testInfo, "operator-forbidden");
  await op.context().close();
});

test("back-office: two operators race on one ticket; one wins, the other sees the conflict", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const integrator = await createWorkspace("backoffice-race");
  const { clientId } = await createApp(request, integrator.keys.sandbox, "Race shop");
  const ticket = await submitDigid(request, integrator.keys.sandbox, clientId);
  const [alice, bob] = await Promise.all([
    makeOperator("e2e-backoffice").then((o) => operatorPage(browser, o)),
    makeOperator("e2e-backoffice").then((o) => operatorPage(browser, o)),
  ]);
  await openFromQueue(alice, ticket);
  await openFromQueue(bob, ticket);
  await expect(bob.getByRole("button", { name: "Start review" })).toBeEnabled();

  await alice.getByRole("button", { name: "Start review" }).click();
  await expect(alice.getByTestId("ticket-status")).toHaveText("Under review");

  // bob's page still shows the ticket as requested: his click loses
  await bob.getByRole("button", { name: "Start review" }).click();
  await expect(bob.getByTestId("ticket-conflict")).toContainText("Another operator moved this ticket first");
  await expect(bob.getByTestId("ticket-status")).toHaveText("Under review");

  // both now decide; alice rejects first, bob's approval is refused and shown, nothing is lost
  await alice.getByLabel("Reason").fill("Company name does not match the register.");
  await bob.getByLabel("Reason").fill("Bob's draft reason");
  await alice.getByRole("button", { name: "Reject" }).click();
  await expect(alice.getByTestId("ticket-status")).toHaveText("Rejected");
  await bob.getByRole("button", { name: "Approve" }).click();
  await expect(bob.getByTestId("ticket-conflict")).toBeVisible();
  await expect(bob.getByTestId("ticket-status")).toHaveText("Rejected");
  await expect(bob.getByTestId("ticket-rejection-reason")).toHaveText(
    "Company name does not match the register.",
  );
  await alice.context().close();
  await bob.context().close();
});
