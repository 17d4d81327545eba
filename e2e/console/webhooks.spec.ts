/**
 * An app's Webhooks tab as a new integrator uses it, against a real receiver on 127.0.0.1 (the e2e
 * server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 and the default retry schedule 1 s, 5 s,
 * 30 s): the URL validated by the API, events chosen and saved; a test event with the receiver's
 * answer shown inline; signing turned on by rotating the secret (confirmed in a dialog), revealed
 * and hidden; a failing receiver whose retries appear in the log until the delivery fails; the
 * delivery's page with the signed payload, each attempt's headers and the receiver's answer; and a
 * redelivery once the receiver is back. axe and 360 px screenshots of the tab and the delivery.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { checkLayouts, consoleUser, signIn } from "./support";

interface TReceived {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver that records each request and answers 200 or, while failing, 500. */
async function startReceiver() {
  const received: TReceived[] = [];
  let failing = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (failing) {
        res.writeHead(500, { "Content-Type": "text/plain" }).end("receiver down for maintenance");
      } else {
        res.writeHead(200, { "Content-Type": "application/json" }).end('{"received":true}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    fail(value: boolean) {
      failing = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What an integrator's receiver does with X-Service-Signature (t=…,v1=…; 300 s tolerance). */
function signatureValid(secret: string, request: TReceived): boolean {
  const header = String(request.headers["x-service-signature"] ?? "");
  const parts = Object.fromEntries(header.split(",").map((p) => p.trim().split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? "")) return false;
  if (Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(request.body).digest();
  return timingSafeEqual(expected, Buffer.from(parts.v1!, "hex"));
}

/** The delivery log's row of one delivery. */
function logRow(page: Page, deliveryId: string) {
  return page.locator(`tr[data-delivery-id="${deliveryId}"]`);
}

/** The delivery id of the latest test event, read from the inline answer's link. */
async function testDeliveryId(page: Page): Promise<string> {
  const href = await page.getByRole("link", { name: "View test delivery" }).getAttribute("href");
  const id = href?.split("/").pop() ?? "";
  expect(id).toMatch(/^dlv_/);
  return id;
}

test("webhooks: configure, test, sign, watch retries and redeliver", async ({ page, request }, testInfo) => {
  // the failing delivery is retried after 1 s, 5 s and 30 s before it is dead
  test.setTimeout(150_000);
  const user = await consoleUser("webhooks");
  const receiver = await startReceiver();
  try {
    const created = await request.post("/api/sandbox/v1/apps", {
      headers: { Authorization: `Bearer ${user.keys.sandbox}` },
      data: { name: "Hook Shop" },
    });
    expect(created.status()).toBe(201);
    const { clientId } = (await created.json()) as { clientId: string };

    await signIn(page, user.email, user.password);
    await page.goto(`/console/sandbox/apps/${clientId}`);
    await page
      .getByRole("navigation", { name: "App sections" })
      .getByRole("link", { name: "Webhooks" })
      .click();
    await expect(page).toHaveURL(new RegExp(`/console/sandbox/apps/${clientId}/webhooks$`));
    await expect(page.getByRole("heading", { name: "Endpoint" })).toBeVisible();

    // --- a new app: no URL, unsigned, nothing delivered
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    await expect(page.getByText(/deliveries are sent unsigned/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
    await expect(page.getByText("Save a webhook URL first.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Reveal secret" })).toHaveCount(0);
    await checkLayouts(page, testInfo, "webhooks-new");

    // --- the API's verdict shows on the field it names
    const urlField = page.getByLabel("Webhook URL");
    await urlField.fill("ftp://hooks.example.test/in");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("must use https or http")).toBeVisible();
    await expect(urlField).toHaveAttribute("aria-invalid", "true");

    // --- URL, enabled and two events from the grouped checklist; saved with Enter (keyboard)
    await expect(page.getByRole("group", { name: "Outcome" })).toBeVisible();
    await page.getByLabel("Enabled").check();
    await page.getByLabel("verification.completed").check();
    await page.getByLabel("verification.failed").check();
    await expect(page.getByLabel("verification.completed")).toHaveAccessibleDescription(
      /The verification succeeded/,
    );
    await urlField.fill(receiver.url);
    await urlField.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Webhook settings saved" })).toBeVisible();
    const saved = await request.get(`/api/sandbox/v1/apps/${clientId}/webhook-config`, {
      headers: { Authorization: `Bearer ${user.keys.sandbox}` },
    });
    expect(await saved.json()).toMatchObject({
      url: receiver.url,
      enabled: true,
      events: ["verification.completed", "verification.failed"],
      signed: false,
    });
    await page.reload();
    await expect(page.getByLabel("Webhook URL")).toHaveValue(receiver.url);
    await expect(page.getByLabel("Enabled")).toBeChecked();
    await expect(page.getByLabel("verification.failed")).toBeChecked();
    await expect(page.getByLabel("verification.created")).not.toBeChecked();

    // --- a test event: the receiver's answer inline, the delivery in the log
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Your receiver accepted the test event.")).toBeVisible();
    await expect(page.getByText("HTTP 200", { exact: true })).toBeVisible();
    await expect(page.getByText('{"received":true}')).toBeVisible();
    const firstTest = await testDeliveryId(page);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers["x-service-event"]).toBe("webhook.test");
    // no secret yet: unsigned
    expect(receiver.received[0]!.headers["x-service-signature"]).toBeUndefined();
    await expect(logRow(page, firstTest)).toContainText("webhook.test");
    await expect(logRow(page, firstTest)).toContainText("Delivered");
    await expect(logRow(page, firstTest)).toContainText("200");

    // --- signing on: rotate (confirmed), the secret shown once in the dialog, then revealed on demand
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Turn on signing?" })).toBeVisible();
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await expect(dialog.getByRole("heading", { name: "New signing secret" })).toBeVisible();
    const secret = (await dialog.locator("code").first().textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
    await expect(dialog.getByRole("button", { name: "Copy signing secret" })).toBeFocused();
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(page.getByText(/Signing is on/)).toBeVisible();
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(page.getByText(secret)).toBeVisible();
    await page.getByRole("button", { name: "Hide secret" }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    // a second rotation asks first and replaces the secret
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect(dialog.getByRole("heading", { name: "Rotate the signing secret?" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await expect(dialog.getByRole("heading", { name: "New signing secret" })).toBeVisible();
    const rotated = (await dialog.locator("code").first().textContent())?.trim() ?? "";
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // --- the receiver fails: the answer inline, then the retries show up in the log
    receiver.fail(true);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("HTTP 500", { exact: true })).toBeVisible();
    await expect(page.getByText("receiver down for maintenance")).toBeVisible();
    const failing = await testDeliveryId(page);
    const row = logRow(page, failing);
    await expect(row).toContainText("Pending");
    await expect(page.getByText("Deliveries pending: refreshing by itself.")).toBeVisible();
    // attempts 2 and 3 come 1 s and 5 s later: the log refreshes by itself
    await expect(row.getByRole("cell").nth(2)).toHaveText("3", { timeout: 20_000 });
    await expect(row).toContainText("500");
    // signed with the current secret, the same delivery id on every attempt
    const attempts = receiver.received.filter((r) => r.headers["x-service-delivery"] === failing);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    for (const attempt of attempts) expect(signatureValid(rotated, attempt)).toBe(true);
    expect(signatureValid(secret, attempts[0]!)).toBe(false);
    // the last retry comes 30 s later; then the delivery is dead
    await expect(row).toContainText("Failed", { timeout: 60_000 });
    await expect(row.getByRole("cell").nth(2)).toHaveText("4");
    await checkLayouts(page, testInfo, "webhooks");

    // --- the delivery's page: payload, each attempt's headers and answer
    await row.getByRole("link", { name: "webhook.test" }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${failing}$`));
    await expect(page.getByRole("heading", { name: "Webhook delivery" })).toBeVisible();
    await expect(page.locator("code", { hasText: failing })).toBeVisible();
    await expect(page.getByTestId("delivery-status")).toHaveText("Failed");
    const payload = page.locator("section").filter({ has: page.getByRole("heading", { name: "Payload" }) });
    await expect(payload).toContainText('"event": "webhook.test"');
    const attemptItems = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: /^Attempt \d+$/ }) });
    await expect(attemptItems).toHaveCount(4);
    const first = attemptItems.first();
    await expect(first).toContainText("HTTP 500");
    await expect(first).toContainText("receiver down for maintenance");
    await first.getByText("Request headers").click();
    await expect(first).toContainText("X-Service-Signature");
    await expect(first).toContainText(String(attempts[0]!.headers["x-service-signature"]));
    await expect(first).toContainText("X-Service-Attempt");
    await first.getByText("Response headers").click();
    await expect(first).toContainText("content-type");
    await checkLayouts(page, testInfo, "webhook-delivery");

    // --- the receiver is back: redeliver once, by hand
    receiver.fail(false);
    const before = receiver.received.length;
    await page.getByRole("button", { name: "Redeliver" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Redelivery queued" })).toBeVisible();
    await expect(page.getByTestId("delivery-status")).toHaveText("Delivered", { timeout: 15_000 });
    await expect(attemptItems).toHaveCount(5);
    const manual = attemptItems.last();
    await expect(manual).toContainText("Attempt 5");
    await expect(manual).toContainText("Manual");
    await expect(manual).toContainText("HTTP 200");
    await expect(manual).toContainText('{"received":true}');
    const redelivered = receiver.received
      .slice(before)
      .find((r) => r.headers["x-service-delivery"] === failing);
    expect(redelivered?.body).toBe(attempts[0]!.body);
    expect(signatureValid(rotated, redelivered!)).toBe(true);

    await page.getByRole("link", { name: "All deliveries" }).click();
    await expect(logRow(page, failing)).toContainText("Delivered");
    await expect(logRow(page, failing).getByRole("cell").nth(2)).toHaveText("5");
  } finally {
    await receiver.close();
  }
});
