/**
 * The end-user's side in a real browser: every flow type from the session's creation through the
 * API to the integrator's redirect URI with the right status and webhook events; cancel, expiry,
 * failure, branding, a 360 px phone, three languages, security headers, and no critical axe
 * violations. Each page's screenshot is attached to the test.
 */
import { expect } from "@playwright/test";
import { connectProductionProvider, makeOperator } from "../operator/support";
import {
  eventsOf,
  expectNoCriticalA11yViolations,
  expectNoSidewaysScrolling,
  hostedPath,
  keepScreenshot,
  makeApp,
  PNG_1X1,
  returnedQuery,
  startSession,
  testWithIntegrator,
} from "./support";

const test = testWithIntegrator("hosted");

test("redirect flow: provider simulator, approve, back at the redirect URI with a code", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  const app = await makeApp(request, workspace.keys.sandbox, integrator, {
    name: "Redirect Shop",
    providers: ["de_eid"],
  });
  const { verificationId } = await startSession(request, app, {
    providerId: "de_eid",
    flowType: "redirect",
    redirect_uri: integrator.returnUrl,
    state: "st-redirect",
    locale: "en",
  });
  const response = await page.goto(hostedPath(verificationId));
  const headers = response!.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["cache-control"]).toContain("no-store");
  await expect(page.getByTestId("brand-name")).toHaveText("Redirect Shop");
  await expect(page.getByTestId("provider-heading")).toContainText("German eID card");
  await expect(page.getByText("Available in: Germany")).toBeVisible();
  await expect(page.getByTestId("sharing")).toContainText("Date of birth");
  await expect(page.getByTestId("status")).toHaveText("Waiting for you to start.");
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "redirect-hosted");

  await page.getByTestId("continue").click();
  await expect(page).toHaveURL(new RegExp(`/sandbox/verify/${verificationId}\\?flow=redirect`));
  await expect(page.getByTestId("sandbox-banner")).toContainText("SANDBOX SIMULATOR");
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "redirect-simulator");
  await page.getByTestId("sim-approve").click();

  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/return\?/);
  const query = returnedQuery(page);
  expect(query.get("verificationId")).toBe(verificationId);
  expect(query.get("status")).toBe("completed");
  expect(query.get("state")).toBe("st-redirect");
  expect(query.get("code")).toBeTruthy();
  await keepScreenshot(page, testInfo, "redirect-returned");
  const events = await eventsOf(integrator, verificationId, "verification.completed");
  expect(events).toEqual(
    expect.arrayContaining([
      "verification.created",
      "verification.user.authentication_started",
      "verification.user.authentication_succeeded",
      "verification.completed",
    ]),
  );
});

test("qr flow in German: refreshing QR code, the phone approves, the desktop tab follows", async ({
  page,
  context,
  request,
  workspace,
  integrator,
}, testInfo) => {
  const app = await makeApp(request, workspace.keys.sandbox, integrator, {
    name: "QR Laden",
    providers: ["passport"],
  });
  const { verificationId } = await startSession(request, app, {
    providerId: "passport",
    redirect_uri: integrator.returnUrl,
    state: "st-qr",
    locale: "de-DE",
  });
  await page.goto(hostedPath(verificationId));
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByTestId("provider-heading")).toHaveText("Identität mit Passport (NFC) bestätigen");
  await expect(page.getByTestId("status")).toHaveText("Wartet darauf, dass Sie beginnen.");
  const qr = page.getByTestId("qr-code");
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(qr).toHaveAttribute("data-frame", "1", { timeout: 8_000 });
  // the sandbox offers its simulator on every device (issue 29; sandbox-simulator-link.spec.ts)
  await expect(page.getByTestId("simulator-link")).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "qr-hosted-de");

  const phone = await context.newPage();
  await phone.goto(`/sandbox/verify/${verificationId}?flow=qr`);
  await expect(phone.getByRole("heading", { level: 1 })).toHaveText("Das Smartphone");
  await keepScreenshot(phone, testInfo, "qr-phone-de");
  await phone.getByTestId("sim-approve").click();
  await expect(phone.getByTestId("sim-done")).toContainText("Erledigt");
  await keepScreenshot(phone, testInfo, "qr-phone-done-de");

  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/return\?/, { timeout: 10_000 });
  expect(returnedQuery(page).get("status")).toBe("completed");
  expect(returnedQuery(page).get("state")).toBe("st-qr");
  await eventsOf(integrator, verificationId, "verification.completed");
});

test.describe("French from the browser's Accept-Language", () => {
  test.use({ locale: "fr-FR" });

  test("push flow: validated identifier, then approve in the simulated app", async ({
    page,
    context,
    request,
    workspace,
    integrator,
  }, testInfo) => {
    const app = await makeApp(request, workspace.keys.sandbox, integrator, {
      name: "Boutique",
      providers: ["digital_id_app"],
    });
    const { verificationId } = await startSession(request, app, {
      providerId: "digital_id_app",
      flowType: "push",
      redirect_uri: integrator.returnUrl,
    });
    await page.goto(hostedPath(verificationId));
    await expect(page.getByTestId("provider-heading")).toContainText("Vérifier votre identité avec");
    const field = page.getByLabel("Numéro de téléphone mobile");
    await field.fill("12ab");
    expect(await field.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    await expectNoCriticalA11yViolations(page);
    await keepScreenshot(page, testInfo, "push-identifier-fr");

    // the server checks too: a value the browser let through is refused, the field named, nothing moves
    await field.evaluate((input: HTMLInputElement) => input.removeAttribute("pattern"));
    await page.getByRole("button", { name: "Envoyer la demande à mon application" }).click();
    await expect(page.locator("#identifier-error")).toContainText("numéro de téléphone mobile valide");
    await expect(page.getByLabel("Numéro de téléphone mobile")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(new RegExp(`/verify/${verificationId}\\?error=identifier$`));
    expect(page.url()).not.toContain("12ab");
    await expect(page.getByTestId("status")).toHaveText("En attente de votre action.");

    await page.getByLabel("Numéro de téléphone mobile").fill("+33 612 345 678");
    await page.getByRole("button", { name: "Envoyer la demande à mon application" }).click();
    await expect(page.getByText("Ouvrez votre application")).toBeVisible();
    expect(page.url()).not.toContain("612");
    await expect(page.getByTestId("countdown")).toContainText("Temps restant");
    await keepScreenshot(page, testInfo, "push-approve-fr");

    const appHref = await page.getByTestId("push-app").getAttribute("href");
    const phone = await context.newPage();
    await phone.goto(appHref!);
    await keepScreenshot(phone, testInfo, "push-simulator-fr");
    await phone.getByTestId("sim-approve").click();
    await expect(phone.getByTestId("sim-done")).toBeVisible();

    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/return\?/, { timeout: 10_000 });
    expect(returnedQuery(page).get("status")).toBe("completed");
    const events = await eventsOf(integrator, verificationId, "verification.completed");
    expect(events).toContain("verification.user.authentication_started");
  });
});

test("dc flow: no Digital Credentials API in this browser, the wallet simulator declines → failed", async ({
  page,
  context,
  request,
  workspace,
  integrator,
}, testInfo) => {
  const app = await makeApp(request, workspace.keys.sandbox, integrator, {
    name: "Wallet Shop",
    providers: ["eudi_wallet"],
    demo: true,
    forms: {
      eudi_wallet: {
        legalCompanyName: "Wallet Shop GmbH",
        registrationNumber: "HRB 123456",
        serviceDescription: "Online shop checking identities at checkout",
        displayName: "Wallet Shop",
        contactEmail: "e2e@example.test",
        userDataLevel: "basic",
        privacyPolicyUrl: "https://shop.example.test/privacy",
        dataPurposes: ["identification"],
      },
    },
  });
  const { verificationId } = await startSession(request, app, {
    providerId: "eudi_wallet",
    flowType: "dc",
    redirect_uri: integrator.returnUrl,
    state: "st-dc",
    locale: "en",
  });
  await page.goto(hostedPath(verificationId));
  await expect(
    page.getByText("This browser cannot talk to digital identity wallets directly."),
  ).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "dc-hosted");
  const walletHref = await page.getByTestId("wallet-link").getAttribute("href");
  const wallet = await context.newPage();
  await wallet.goto(walletHref!);
  await expect(wallet.getByText("The wallet asks you to share your identity.")).toBeVisible();
  await keepScreenshot(wallet, testInfo, "dc-wallet");
  await wallet.getByTestId("sim-decline").click();

  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/return\?/, { timeout: 10_000 });
  expect(returnedQuery(page).get("status")).toBe("failed");
  expect(returnedQuery(page).get("code")).toBeNull();
  const events = await eventsOf(integrator, verificationId, "verification.failed");
  expect(events).toContain("verification.user.authentication_failed");
  expect(events).not.toContain("verification.completed");
});

test("Cancel on the hosted page: back to the integrator as cancelled, cancelled by the user", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  const app = await makeApp(request, workspace.keys.sandbox, integrator, { providers: ["passport"] });
  const { verificationId } = await startSession(request, app, {
    providerId: "passport",
    redirect_uri: integrator.returnUrl,
  });
  await page.goto(hostedPath(verificationId));
  await keepScreenshot(page, testInfo, "cancel-before");
  await page.getByTestId("cancel").click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/return\?/);
  expect(returnedQuery(page).get("status")).toBe("cancelled");
  await eventsOf(integrator, verificationId, "verification.workflow.cancelled");
  const cancelled = integrator.events.find(
    (e) => e.data.verificationId === verificationId && e.event === "verification.workflow.cancelled",
  );
  expect(cancelled?.data.event?.metadata?.cancelledBy).toBe("user");
});

test("expiry without any redirect target: the final page says to start again", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  const app = await makeApp(request, workspace.keys.sandbox, integrator, {
    providers: ["de_eid"],
    redirect: false,
  });
  const { verificationId } = await startSession(request, app, {
    providerId: "de_eid",
    flowType: "redirect",
    locale: "en",
  });
  await page.goto(hostedPath(verificationId));
  await page.getByTestId("continue").click();
  await page.getByTestId("sim-expire").click();
  await expect(page).toHaveURL(new RegExp(`/verify/${verificationId}$`));
  await expect(page.getByTestId("final")).toHaveAttribute("data-status", "expired");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Session expired");
  await expect(page.getByText("To start again, go back to")).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "expired-final");
  await eventsOf(integrator, verificationId, "verification.session.timed_out");
  // the simulator of an ended session offers nothing more
  await page.goto(`/sandbox/verify/${verificationId}?flow=redirect`);
  await expect(page.getByTestId("sim-approve")).toHaveCount(0);
});

test("node branding and a 360 px phone: logo and name shown, same-device link, no sideways scrolling", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const app = await makeApp(request, workspace.keys.sandbox, integrator, {
    name: "Logo Shop",
    logo: PNG_1X1,
    providers: ["passport"],
  });
  const { verificationId } = await startSession(request, app, { providerId: "passport", locale: "en" });
  await page.goto(hostedPath(verificationId));
  await expect(page.getByTestId("brand-name")).toHaveText("Logo Shop");
  await expect(page.locator("header img")).toHaveAttribute("src", PNG_1X1);
  await expect(page.getByTestId("simulator-link")).toBeVisible();
  await expectNoSidewaysScrolling(page);
  await expectNoCriticalA11yViolations(page);
  await keepScreenshot(page, testInfo, "mobile-360");
  // keyboard: Tab reaches the simulator link (the sandbox's same-device way) before Cancel
  const order: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    order.push((await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))) ?? "");
  }
  expect(order.indexOf("simulator-link")).toBeGreaterThanOrEqual(0);
  expect(order.indexOf("simulator-link")).toBeLessThan(order.indexOf("cancel"));
});

test("unknown sessions are 404 on both surfaces; the simulator does not exist for production", async ({
  page,
  request,
  workspace,
  integrator,
}) => {
  expect((await page.goto("/verify/ver_00000000000000000000000000"))!.status()).toBe(404);
  expect((await page.goto("/sandbox/verify/ver_00000000000000000000000000"))!.status()).toBe(404);
  // a production session needs a connected provider (issue 24)
  await connectProductionProvider(request, (await makeOperator("flows")).operatorKey, "passport");
  const app = await makeApp(request, workspace.keys.production, integrator, {
    providers: ["passport"],
    env: "production",
  });
  const { verificationId } = await startSession(request, app, { providerId: "passport" }, "production");
  expect((await page.goto(`/sandbox/verify/${verificationId}?flow=qr`))!.status()).toBe(404);
  const act = await request.post(`/sandbox/verify/${verificationId}/act`, {
    form: { outcome: "success", flow: "qr" },
  });
  expect(act.status()).toBe(404);
  const status = await request.get(`/verify/${verificationId}/status`);
  expect(await status.json()).toEqual({ status: "awaiting_user_action" });
});

// WCAG 3.1.1: the document's language is the language the page is served in (the root layouts at
// the [id] segments set it), on the hosted page, the simulator and their not-found pages.
test.describe("the served language is the document's language", () => {
  test("a session created in German: <html lang=de> on the hosted page and the simulator", async ({
    page,
    request,
    workspace,
    integrator,
  }) => {
    const app = await makeApp(request, workspace.keys.sandbox, integrator, { providers: ["passport"] });
    const { verificationId } = await startSession(request, app, { providerId: "passport", locale: "de" });
    await page.goto(hostedPath(verificationId));
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByTestId("status")).toHaveText("Wartet darauf, dass Sie beginnen.");
    // one language attribute: nothing inside the page claims another
    await expect(page.locator("body [lang]")).toHaveCount(0);
    await page.goto(`/sandbox/verify/${verificationId}?flow=qr`);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Das Smartphone");
  });

  test.describe("a browser asking for French", () => {
    test.use({ locale: "fr-FR" });

    test("<html lang=fr> on the hosted page, the simulator and an unknown session's 404", async ({
      page,
      request,
      workspace,
      integrator,
    }) => {
      const app = await makeApp(request, workspace.keys.sandbox, integrator, { providers: ["passport"] });
      const { verificationId } = await startSession(request, app, { providerId: "passport" });
      await page.goto(hostedPath(verificationId));
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByTestId("status")).toHaveText("En attente de votre action.");
      await page.goto(`/sandbox/verify/${verificationId}?flow=qr`);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");

      const unknown = await page.goto("/verify/ver_00000000000000000000000000");
      expect(unknown!.status()).toBe(404);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vérification introuvable");
      const simulator = await page.goto("/sandbox/verify/ver_00000000000000000000000000");
      expect(simulator!.status()).toBe(404);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vérification introuvable");
    });

    test("the session's locale wins over the browser's", async ({ page, request, workspace, integrator }) => {
      const app = await makeApp(request, workspace.keys.sandbox, integrator, { providers: ["passport"] });
      const { verificationId } = await startSession(request, app, {
        providerId: "passport",
        locale: "de-CH",
      });
      await page.goto(hostedPath(verificationId));
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
    });
  });

  test("a URL no route matches is a 404 page in English", async ({ page }) => {
    for (const path of ["/no-such-page", "/verify", "/verify/ver_00000000000000000000000000/no-such-step"]) {
      const response = await page.goto(path);
      expect(response!.status(), path).toBe(404);
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    }
    await expectNoCriticalA11yViolations(page);
  });
});
