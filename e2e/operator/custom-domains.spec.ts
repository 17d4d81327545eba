/**
 * The back-office's custom domains: a domain an integrator configured through the API is listed
 * with its state and the action it waits for; the TLS check explains the allow-list answer for
 * that host (refused: not active yet) and for a host no domain uses. axe and 360 px.
 */
import { expect, test } from "@playwright/test";
import { createWorkspace } from "../support/cli";
import { checkLayouts } from "../console/support";
import { bearer, makeOperator, operatorPage } from "./support";

test("back-office custom domains: the list with state, the TLS check for a known and an unknown host", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const integrator = await createWorkspace("backoffice-domains");
  const key = integrator.keys.sandbox;
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(key),
    data: { name: "Domain shop" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { clientId } = (await created.json()) as { clientId: string };
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const web = `verify.shop-${unique}.co.uk`;
  const oidc = `auth.shop-${unique}.co.uk`;
  const put = await request.put(`/api/sandbox/v1/apps/${clientId}/custom-domain`, {
    headers: bearer(key),
    data: { webDomain: web, oidcDomain: oidc },
  });
  expect(put.status(), await put.text()).toBe(200);

  const op = await operatorPage(browser, await makeOperator("e2e-backoffice-dom"));
  await op
    .getByRole("navigation", { name: "Back-office" })
    .getByRole("link", { name: "Custom domains" })
    .click();
  await expect(op.getByRole("heading", { name: "Custom domains", level: 1 })).toBeVisible();
  await op.getByLabel("Search").fill(`shop-${unique}`);
  const row = op.getByTestId("custom-domain-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(web);
  await expect(row).toContainText(oidc);
  await expect(row).toContainText("Domain shop");
  await expect(row.getByTestId("custom-domain-status")).toHaveText("awaiting_dns");
  await expect(row).toContainText("Waiting for DNS records");
  await expect(row).toContainText("Integrator adds the DNS records");
  await expect(row).toContainText("Not checked yet");
  // the state filter: the domain is not active
  await op.getByLabel("State").selectOption("active");
  await expect(op).toHaveURL(/[?&]status=active(&|$)/);
  await expect(op.getByText("No custom domain matches these filters.")).toBeVisible();
  await op.getByLabel("State").selectOption("awaiting_dns");
  await expect(op).toHaveURL(/[?&]status=awaiting_dns(&|$)/);
  await expect(op.getByLabel("State")).toHaveValue("awaiting_dns");
  await expect(row).toHaveCount(1);

  // the TLS check for the domain's host (any case): refused, it is not active yet
  const host = op.getByLabel("Host", { exact: true });
  await host.fill(web.toUpperCase());
  await op.getByRole("button", { name: "Check" }).click();
  const answer = op.getByTestId("tls-answer");
  await expect(answer.getByTestId("tls-allowed")).toHaveText("Refused");
  await expect(answer.getByTestId("tls-code")).toHaveText("domain_not_active");
  await expect(answer.getByTestId("tls-reason")).toContainText(clientId);
  await expect(answer).toContainText("Web (hosted pages)");
  await expect(answer).toContainText("Sandbox");
  await checkLayouts(op, testInfo, "operator-custom-domains");

  // a host no domain uses
  await host.fill(`unknown-${unique}.example.com`);
  await op.getByRole("button", { name: "Check" }).click();
  await expect(answer.getByTestId("tls-code")).toHaveText("unknown_host");
  await expect(answer.getByTestId("tls-allowed")).toHaveText("Refused");
  await expect(answer).toContainText("No custom domain uses this host");

  // an empty host: the API's verdict on the field
  await host.fill("");
  await op.getByRole("button", { name: "Check" }).click();
  await expect(host).toHaveAttribute("aria-invalid", "true");
  await op.context().close();
});
