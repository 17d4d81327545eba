/**
 * An app's Domain tab as an integrator uses it: hosts checked on the field (by the page, then by
 * the API), the DNS records to create, Verify with per-record results (missing, wrong value with
 * what was found), the domain active with its hosted-page address and issuer, then removed.
 * The server resolves custom domains only at IDV_DNS_SERVERS (e2e/support/env.ts): this file runs
 * a DNS server on that fixed port and publishes the records the page asked for.
 */
import { expect, test, type Locator } from "@playwright/test";
import type { TTestDnsServer } from "../../lib/testing/dns-server";
import { startE2eDnsServer } from "../support/dns-port";
import { checkLayouts, consoleUser, signIn } from "./support";

// one DNS server on one fixed port: the tests of this file run one after another
test.describe.configure({ mode: "serial" });

let dns: TTestDnsServer;
test.beforeAll(async () => {
  // e2e/console/domain-finish.spec.ts uses the same port: take turns
  dns = await startE2eDnsServer();
});
test.afterAll(async () => {
  await dns?.close();
});

interface TShownRecord {
  type: string;
  host: string;
  value: string;
}

/** The records as the table shows them: type, full name, value. */
async function shownRecords(table: Locator): Promise<TShownRecord[]> {
  const rows = table.locator("tbody tr");
  const records: TShownRecord[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = rows.nth(i).locator("td");
    records.push({
      type: (await cells.nth(0).innerText()).trim(),
      host: (
        await cells
          .nth(1)
          .getByText(/^Full name:/)
          .innerText()
      )
        .replace("Full name:", "")
        .trim(),
      value: (await cells.nth(2).locator("code").innerText()).trim(),
    });
  }
  return records;
}

test("custom domain: hosts validated inline, DNS records, verify to active, remove", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const base = `shop-${unique}.co.uk`;
  const web = `verify.${base}`;
  const oidc = `auth.${base}`;

  const user = await consoleUser("domain");
  await signIn(page, user.email, user.password);
  await page.goto("/console/sandbox/apps");
  await page.getByRole("button", { name: "Create app" }).first().click();
  await page.getByLabel("App name").fill("Domain shop");
  await page.getByRole("button", { name: "Create app" }).last().click();
  await page.getByRole("dialog").getByRole("link", { name: "Open app" }).click();
  await expect(page.getByRole("heading", { name: "Domain shop" })).toBeVisible();

  await page.getByRole("link", { name: "Domain", exact: true }).click();
  await expect(page).toHaveURL(/\/console\/sandbox\/apps\/app_[^/]+\/domain$/);
  await expect(page.getByRole("heading", { name: "Enter the hosts" })).toBeVisible();
  await checkLayouts(page, testInfo, "domain-hosts");

  // the page's own check: a URL where a host belongs, shown on the field before anything is sent
  const webField = page.getByLabel("Web host");
  const oidcField = page.getByLabel("OIDC host");
  await webField.fill(`https://${web}/`);
  await oidcField.fill(oidc);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(webField).toHaveAttribute("aria-invalid", "true");
  await expect(webField).toHaveAccessibleDescription(/without https:\/\//);
  await expect(webField).toBeFocused();

  // the API's verdict lands on the field it names: hosts under different base domains
  await webField.fill(web);
  await oidcField.fill(`auth.other-${unique}.co.uk`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(oidcField).toHaveAttribute("aria-invalid", "true");
  await expect(oidcField).toHaveAccessibleDescription(/must share the base domain of the web host/i);
  await expect(webField).not.toHaveAttribute("aria-invalid", "true");
  await checkLayouts(page, testInfo, "domain-hosts-error");

  await oidcField.fill(oidc);
  await page.getByRole("button", { name: "Save" }).click();

  // the records to create, before any check
  await expect(page.getByRole("heading", { name: "DNS records", exact: true })).toBeFocused();
  await expect(page.getByText("Waiting for DNS records", { exact: true })).toBeVisible();
  const table = page.getByRole("table", { name: "DNS records to create" });
  const records = await shownRecords(table);
  expect(records.map((r) => [r.type, r.host])).toEqual([
    ["CNAME", web],
    ["CNAME", oidc],
    ["TXT", `_idv-challenge.${base}`],
  ]);
  expect(records[2]!.value).toMatch(/^idv-verify=[A-Za-z0-9]{32}$/);
  await expect(table.getByRole("button", { name: "Copy value" })).toHaveCount(3);
  await expect(table.getByText("Not checked yet")).toHaveCount(3);

  // nothing published yet: every record missing
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(table.getByText("Missing", { exact: true })).toHaveCount(3);
  await expect(page.getByText("None of the records below could be seen in DNS yet.")).toBeVisible();
  await checkLayouts(page, testInfo, "domain-records-missing");

  // the CNAMEs right, the ownership record with someone else's token: a wrong value, shown
  for (const r of records.filter((r) => r.type === "CNAME")) dns.records.set(r.host, { CNAME: r.value });
  dns.records.set(records[2]!.host, { TXT: ["idv-verify=someone-elses-token"] });
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Wrong DNS record", { exact: true })).toBeVisible();
  await expect(table.getByText("Found", { exact: true })).toHaveCount(2);
  await expect(table.getByText("Wrong value", { exact: true })).toHaveCount(1);
  await expect(table.getByText("idv-verify=someone-elses-token")).toBeVisible();

  // fixed: active, with the addresses it serves
  dns.records.set(records[2]!.host, { TXT: [records[2]!.value] });
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(table.getByText("Found", { exact: true })).toHaveCount(3);
  const live = page.locator("section").filter({ has: page.getByRole("heading", { name: "Live addresses" }) });
  await expect(live.getByText(`https://${web}/verify/…`)).toBeVisible();
  await expect(live.getByText(`https://${oidc}`, { exact: true })).toBeVisible();
  await checkLayouts(page, testInfo, "domain-active");

  // removing asks first, and Cancel keeps it
  await page.getByRole("button", { name: "Remove domain" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove the custom domain?" });
  await expect(dialog).toContainText(web);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Remove domain" }).click();
  await dialog.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Enter the hosts" })).toBeVisible();
  await expect(page.getByLabel("Web host")).toHaveValue("");
  // gone on the server too
  await page.reload();
  await expect(page.getByRole("heading", { name: "Enter the hosts" })).toBeVisible();
});
