/**
 * next-auth (v4), configured as an OpenID Connect client of the broker's OP, signs a person in
 * through the real hosted pages: RP → /oidc/sandbox/auth → /verify/{id} → (the end-user
 * completes the sandbox provider) → /oidc/sandbox/resume → RP callback → RP session.
 */
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { expectNoCriticalA11yViolations } from "../hosted/support";
import { createWorkspace } from "../support/cli";
import { E2E_ENV, RP_CONFIG_FILE, RP_PORT } from "../support/env";

const RP = `http://localhost:${RP_PORT}`;

test("next-auth signs in with an eID through the hosted pages", async ({
  page,
  request,
  browser,
}, testInfo) => {
  // the relying party runs `next dev`: its routes compile on first use
  test.setTimeout(120_000);
  const ws = await createWorkspace("next-auth relying party");
  const headers = { Authorization: `Bearer ${ws.keys.sandbox}` };
  const created = await request.post("/api/sandbox/v1/apps", { headers, data: { name: "Next RP" } });
  expect(created.status()).toBe(201);
  const app = (await created.json()) as { clientId: string; clientSecret: string };
  const patched = await request.patch(`/api/sandbox/v1/apps/${app.clientId}`, {
    headers,
    data: { redirectUris: [`${RP}/api/auth/callback/idv`] },
  });
  expect(patched.status()).toBe(200);
  fs.mkdirSync(".data", { recursive: true });
  fs.writeFileSync(
    RP_CONFIG_FILE,
    JSON.stringify({
      issuer: `${E2E_ENV.PUBLIC_URL}/oidc/sandbox`,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      provider: "passport",
    }),
  );

  await page.goto(`${RP}/api/auth/signin`);
  await page.getByRole("button", { name: /Identity verification/ }).click();
  await page.waitForURL(/\/verify\/ver_[0-9A-Z]+/, { timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath("hosted-page.png"), fullPage: true });
  const verificationId = new URL(page.url()).pathname.split("/")[2]!;

  // the same page in another browser (a forwarded link, a stolen id): nothing to act on there
  const elsewhere = await browser.newContext();
  const stranger = await elsewhere.newPage();
  await stranger.goto(page.url());
  await expect(stranger.getByRole("heading", { level: 1 })).toHaveText("Continue where you started");
  await expect(stranger.getByTestId("other-browser")).toContainText("started in another browser");
  await expectNoCriticalA11yViolations(stranger);
  await stranger.screenshot({ path: testInfo.outputPath("other-browser.png"), fullPage: true });

  // the end-user completes the sandbox provider (the simulator's own code path)
  const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
  const simulated = await request.post(`/api/sandbox/v1/sandbox/verifications/${verificationId}/simulate`, {
    headers: { Authorization: `Basic ${basic}` },
    data: { outcome: "success", identity: "passport-anna-eriksson" },
  });
  expect(simulated.status()).toBe(200);

  // the hosted page notices, the OP answers next-auth, next-auth signs the person in
  await page.waitForURL((url) => url.origin === RP && !url.pathname.startsWith("/api/auth/signin"), {
    timeout: 30_000,
  });
  await page.screenshot({ path: testInfo.outputPath("relying-party.png"), fullPage: true });
  // the other browser learns that the sign-in ended, and is sent nowhere
  await stranger.reload();
  await expect(stranger.getByTestId("other-browser")).toContainText("has ended");
  expect(new URL(stranger.url()).pathname).toBe(`/verify/${verificationId}`);
  const polled = await stranger.request.get(new URL(`/verify/${verificationId}/status`, stranger.url()).href);
  expect(((await polled.json()) as { next?: string | null }).next ?? null).toBeNull();
  await elsewhere.close();
  const session = (await (await page.request.get(`${RP}/api/auth/session`)).json()) as {
    user?: { name?: string };
    sub?: string;
    acr?: string;
  };
  // the person's subject is the one the broker reports for the verification; the ID token that
  // next-auth built the session from carries no personal data, so the name is the subject too
  const userinfo = await request.get(`/api/sandbox/v1/verifications/${verificationId}/userinfo`, {
    headers: { Authorization: `Basic ${basic}` },
  });
  const claims = (await userinfo.json()) as { sub: string; user: { given_name?: string } };
  expect(claims.user.given_name).toBe("Anna");
  expect(session.sub).toBe(claims.sub);
  expect(session.user?.name).toBe(claims.sub);
  expect(session.acr).toBe("urn:idv:loa:2");
});
