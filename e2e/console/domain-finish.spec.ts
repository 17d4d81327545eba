/**
 * The Domain tab's fit and finish (issue 29, item 6), as a person sees it in Chromium: the e2e
 * server's PUBLIC_URL is an IP address, so the CNAME target is unusable and the tab says so (and
 * what the operator must set) before anything is entered; the "Create the DNS records" step is
 * not ticked while a check finds records missing; on a phone each record is a card whose name
 * and value run the card's width, with copy buttons that put the exact value on the clipboard
 * (mouse and keyboard). axe, no sideways scroll and screenshots at 390 px and 1440 px.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { startE2eDnsServer } from "../support/dns-port";
import { consoleUser, expectAxeClean, signIn } from "./support";

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function checkWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAxeClean(page);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(scroll, `${name} at ${width}px must not scroll sideways`).toBeLessThanOrEqual(1);
    const body = await page.screenshot({
      fullPage: true,
      path: testInfo.outputPath(`${name}-${width}px.png`),
    });
    await testInfo.attach(`${name}-${width}px`, { body, contentType: "image/png" });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("domain tab: unusable CNAME target warned, step ticked only when done, cards with copy at 390 px", async ({
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const base = `finish-${unique}.co.uk`;
  const owner = await consoleUser("domain-finish");
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(owner.keys.sandbox),
    data: { name: "Finish shop" },
  });
  const { clientId } = (await created.json()) as { clientId: string };

  // the API carries the warning too, for API clients
  const api = await request.get(`/api/sandbox/v1/apps/${clientId}/custom-domain`, {
    headers: bearer(owner.keys.sandbox),
  });
  const json = (await api.json()) as { warnings?: { code: string; message: string }[] };
  expect(json.warnings?.map((w) => w.code)).toEqual(["cname_target_unusable"]);

  await signIn(page, owner.email, owner.password);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/console/sandbox/apps/${clientId}/domain`);
  await expect(page.getByRole("heading", { name: "Enter the hosts" })).toBeVisible();

  // before anything is entered: the target is an IP address, and the operator must set PUBLIC_URL
  const warning = page.getByRole("region", { name: "These DNS records cannot work on this installation" });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText("127.0.0.1 is an IP address");
  await expect(warning).toContainText("a CNAME record must point at a host name");
  await expect(warning).toContainText("must set PUBLIC_URL (or IDV_CNAME_TARGET) to a DNS name");
  await checkWidths(page, testInfo, "domain-finish-warning");

  // the hosts, by keyboard only
  await page.getByLabel("Web host").focus();
  await page.keyboard.type(`verify.${base}`);
  await page.keyboard.press("Tab");
  await page.keyboard.type(`auth.${base}`);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "DNS records", exact: true })).toBeFocused();
  // the records made with the IP target are warned about as well
  await expect(warning).toContainText("127.0.0.1 is an IP address");

  const steps = page.getByRole("list", { name: "Setup steps" });
  const recordsStep = steps.getByRole("listitem").filter({ hasText: "Create the DNS records" });
  const hostsStep = steps.getByRole("listitem").filter({ hasText: "Enter the hosts" });
  await expect(hostsStep).toContainText("(done)");
  await expect(recordsStep).toHaveAttribute("aria-current", "step");
  await expect(recordsStep).not.toContainText("(done)");

  // a check while nothing is published: every record missing, the step still not ticked
  const table = page.getByRole("table", { name: "DNS records to create" });
  const hosts = [`verify.${base}`, `auth.${base}`];
  const dns = await startE2eDnsServer();
  try {
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(table.getByText("Missing", { exact: true })).toHaveCount(3);
    await expect(recordsStep).toHaveAttribute("aria-current", "step");
    await expect(recordsStep).not.toContainText("(done)");
    await expect(recordsStep).toContainText("(0 of 3 found)");
    await checkWidths(page, testInfo, "domain-finish-missing");

    // the CNAMEs in place, the ownership record not yet: still not done
    const value = (
      await table.locator("tbody tr").first().locator("td").nth(2).locator("code").innerText()
    ).trim();
    for (const host of hosts) dns.records.set(host, { CNAME: value });
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(table.getByText("Found", { exact: true })).toHaveCount(2);
    await expect(recordsStep).toContainText("(2 of 3 found)");
    await expect(recordsStep).not.toContainText("(done)");
  } finally {
    await dns.close();
  }

  // a phone: one card per record, the table out of sight, names laid out across the card
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(table).toBeHidden();
  const cards = page.getByRole("list", { name: "DNS records to create" }).getByRole("listitem");
  await expect(cards).toHaveCount(3);
  const first = cards.first();
  await expect(first).toContainText("CNAME");
  await expect(first).toContainText(`verify.${base}`);
  const nameBox = await first.locator("dd code").first().boundingBox();
  expect(nameBox!.width, "a record's name runs across the card, not a thin column").toBeGreaterThan(200);
  const lineHeight = await first
    .locator("dd code")
    .nth(1)
    .evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  const fullBox = await first.locator("dd code").nth(1).boundingBox();
  expect(fullBox!.height, "the full name fits on one or two lines").toBeLessThanOrEqual(lineHeight * 2 + 1);

  // copy buttons: by mouse, then by keyboard, each putting the exact text on the clipboard
  await first.getByRole("button", { name: "Copy name" }).click();
  await expect(first.getByRole("button", { name: "Copied" })).toBeVisible();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("verify");
  const txt = cards.nth(2);
  await expect(txt).toContainText("TXT");
  const txtValue = (await txt.locator("dd code").nth(2).innerText()).trim();
  expect(txtValue).toMatch(/^idv-verify=[A-Za-z0-9]{32}$/);
  await txt.getByRole("button", { name: "Copy value" }).focus();
  await page.keyboard.press("Enter");
  await expect(txt.getByRole("button", { name: "Copied" })).toBeVisible();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(txtValue);
  await cards.nth(1).getByRole("button", { name: "Copy full name" }).focus();
  await page.keyboard.press("Space");
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`auth.${base}`);
  await checkWidths(page, testInfo, "domain-finish-cards");
});
