/**
 * A production sign-in through a SAML 2.0 identity provider built with another library (samlify),
 * served by a small HTTP server on 127.0.0.1: the operator connects the provider from the IdP's
 * metadata URL (the e2e server allows private networks), the IdP is given our SP metadata, and
 * the end-user goes from the hosted page to the IdP's page, signs in there, and is back at the
 * integrator with a completed session whose claims are the IdP's. And an operator's test sign-in
 * through a saml connection from the back-office: the IdP's post to the ACS ends on the result
 * page with the mapped claims.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { startSamlIdp, fixture, type TSamlIdp } from "../../lib/testing/saml-idp";
import { bearer, makeOperator, operatorPage } from "../operator/support";
import {
  hostedPath,
  keepScreenshot,
  makeApp,
  returnedQuery,
  startSession,
  testWithIntegrator,
} from "./support";

const test = testWithIntegrator("saml");

const PROVIDER = "it_cie";
const GIULIA = {
  personIdentifier: "IT/IT/CIE-E2E-0042",
  familyName: "Rossi",
  firstName: "Giulia",
  dateOfBirth: "1990-02-14",
};

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** The IdP's sign-in page: the answer to the AuthnRequest, posted to the ACS by a button. */
function signInPage(acs: string, form: { SAMLResponse: string; RelayState: string }): string {
  return `<!doctype html><html lang="en"><head><title>Example eID</title></head><body><main>
<h1>Example eID (samlify)</h1><p>Sign in as ${GIULIA.firstName} ${GIULIA.familyName}</p>
<form method="post" action="${escape(acs)}">
<input type="hidden" name="SAMLResponse" value="${escape(form.SAMLResponse)}">
<input type="hidden" name="RelayState" value="${escape(form.RelayState)}">
<button type="submit">Sign in</button></form></main></body></html>`;
}

interface TIdpServer {
  base: string;
  metadataXml: string;
  /** the IdP once it has our SP metadata */
  use(spMetadataXml: string): void;
  /** the last sign-in request the IdP received (its URL, AuthnRequest and RelayState) */
  lastSsoUrl(): string;
  close(): Promise<void>;
}

async function startIdpServer(providerId = PROVIDER): Promise<TIdpServer> {
  let idp: TSamlIdp | undefined;
  let base = "";
  let lastSso = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    if (url.pathname === "/metadata") {
      res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(bootstrap().metadataXml);
      return;
    }
    if (url.pathname === "/sso" && idp) {
      lastSso = url.href;
      const acs = `http://127.0.0.1:3100/verify/saml/production/${providerId}/acs`;
      idp
        .answer(url.href, { person: GIULIA, loa: "http://eidas.europa.eu/LoA/high", encrypt: true })
        .then((form) =>
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(signInPage(acs, form)),
        )
        .catch((err: unknown) => res.writeHead(400).end(`AuthnRequest refused: ${String(err)}`));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/metadata`;
  const bootstrap = () => startSamlIdp("", entityId, { ssoUrl: `${base}/sso` });
  return {
    base,
    metadataXml: bootstrap().metadataXml,
    use: (spMetadataXml) => {
      idp = startSamlIdp(spMetadataXml, entityId, { ssoUrl: `${base}/sso` });
    },
    lastSsoUrl: () => lastSso,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("production sign-in through a SAML identity provider (samlify): hosted page → IdP → back completed", async ({
  page,
  request,
  workspace,
  integrator,
}, testInfo) => {
  const idpServer = await startIdpServer();
  try {
    const operator = await makeOperator("saml");
    const spMetadataUrl = `/verify/saml/production/${PROVIDER}/metadata`;
    const put = await request.put(`/api/production/v1/operator/connections/${PROVIDER}`, {
      headers: bearer(operator.operatorKey),
      data: {
        adapter: "saml",
        enabled: true,
        settings: {
          metadataUrl: `${idpServer.base}/metadata`,
          allowInsecureRequests: true,
          spEntityId: `http://127.0.0.1:3100${spMetadataUrl}`,
          spSigningCertificate: fixture("sp-signing-cert.pem"),
          spSigningPrivateKey: fixture("sp-signing-key.pem"),
          spEncryptionCertificate: fixture("sp-encryption-cert.pem"),
          spEncryptionPrivateKey: fixture("sp-encryption-key.pem"),
          eidas: { spType: "public" },
        },
      },
    });
    expect([200, 201], await put.text()).toContain(put.status());
    const connection = (await put.json()) as { settings: { metadataXml: string }; serviceProvider: unknown };
    expect(connection.settings.metadataXml).toBe(idpServer.metadataXml);
    expect(connection.serviceProvider).toEqual({
      entityId: `http://127.0.0.1:3100${spMetadataUrl}`,
      metadataUrl: `http://127.0.0.1:3100${spMetadataUrl}`,
      acsUrl: `http://127.0.0.1:3100/verify/saml/production/${PROVIDER}/acs`,
    });
    const spMetadata = await request.get(spMetadataUrl);
    expect(spMetadata.status()).toBe(200);
    expect(spMetadata.headers()["content-type"]).toContain("application/samlmetadata+xml");
    idpServer.use(await spMetadata.text());

    const app = await makeApp(request, workspace.keys.production, integrator, {
      name: "SAML Shop",
      providers: [PROVIDER],
      env: "production",
    });
    const { verificationId } = await startSession(
      request,
      app,
      { providerId: PROVIDER, flowType: "redirect", redirect_uri: integrator.returnUrl, state: "st-saml" },
      "production",
    );
    await page.goto(hostedPath(verificationId));
    await expect(page.getByTestId("provider-heading")).toContainText("CIE");
    await keepScreenshot(page, testInfo, "saml-hosted");
    await page.getByTestId("continue").click();

    // at the identity provider, which checked our signed AuthnRequest to build this page
    await expect(page).toHaveURL(new RegExp(`^${idpServer.base}/sso\\?SAMLRequest=`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Example eID (samlify)");
    await keepScreenshot(page, testInfo, "saml-idp");
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/return\?/);
    const query = returnedQuery(page);
    expect(query.get("verificationId")).toBe(verificationId);
    expect(query.get("status")).toBe("completed");
    expect(query.get("state")).toBe("st-saml");
    await keepScreenshot(page, testInfo, "saml-returned");

    const userinfo = await request.get(`/api/production/v1/verifications/${verificationId}/userinfo`, {
      headers: { Authorization: app.basic },
    });
    expect(userinfo.status(), await userinfo.text()).toBe(200);
    expect(await userinfo.json()).toMatchObject({
      provider_id: PROVIDER,
      service_loa: 3,
      user: { given_name: "Giulia", family_name: "Rossi", birthdate: "1990-02-14" },
    });
  } finally {
    await idpServer.close();
  }
});

test("operator: test sign-in through a saml connection, answered by the IdP's post to the ACS", async ({
  browser,
  request,
}, testInfo) => {
  // a provider no other spec connects (connections are environment-wide)
  const providerId = "it_spid";
  const idpServer = await startIdpServer(providerId);
  try {
    const operator = await makeOperator("saml-test");
    const spMetadataUrl = `/verify/saml/production/${providerId}/metadata`;
    const put = await request.put(`/api/production/v1/operator/connections/${providerId}`, {
      headers: bearer(operator.operatorKey),
      data: {
        adapter: "saml",
        // an operator tests before switching it on
        enabled: false,
        settings: {
          metadataUrl: `${idpServer.base}/metadata`,
          allowInsecureRequests: true,
          spEntityId: `http://127.0.0.1:3100${spMetadataUrl}`,
          spSigningCertificate: fixture("sp-signing-cert.pem"),
          spSigningPrivateKey: fixture("sp-signing-key.pem"),
          spEncryptionCertificate: fixture("sp-encryption-cert.pem"),
          spEncryptionPrivateKey: fixture("sp-encryption-key.pem"),
        },
      },
    });
    expect([200, 201], await put.text()).toContain(put.status());
    idpServer.use(await (await request.get(spMetadataUrl)).text());

    const page = await operatorPage(browser, operator);
    await page.goto(`/operator/production/connections/${providerId}`);
    await expect(page.getByRole("form", { name: "Connection settings" }).getByLabel("Adapter")).toHaveValue(
      "saml",
    );
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Test sign-in" }).click();
    const popup = await popupOpened;
    // the IdP's page in the new tab (the tab's URL is read from the IdP's side: a tab opened blank
    // and then sent on may report an empty URL to the test for a while under load)
    await expect(popup.getByRole("heading", { name: "Example eID (samlify)" })).toBeVisible({
      timeout: 20_000,
    });
    expect(idpServer.lastSsoUrl()).toMatch(new RegExp(`^${idpServer.base}/sso\\?SAMLRequest=`));
    // SAML Bindings §3.4.3: the RelayState the IdP receives is at most 80 bytes
    const relayState = new URL(idpServer.lastSsoUrl()).searchParams.get("RelayState") ?? "";
    expect(relayState).toMatch(/^t\.[A-Za-z0-9_-]{32}$/);
    expect(Buffer.byteLength(relayState, "utf8")).toBeLessThanOrEqual(80);
    await popup.getByRole("button", { name: "Sign in" }).click();
    await popup.waitForURL(new RegExp(`/operator/production/connections/${providerId}/test-sign-in$`));
    await expect(popup.getByTestId("test-outcome")).toHaveText("Signed in");
    await expect(popup.getByTestId("mapped-claims")).toContainText('"Giulia"');
    await expect(popup.getByTestId("raw-claims")).toContainText("FirstName");
    await keepScreenshot(popup, testInfo, "saml-test-sign-in-result");
    // the connection page got the result too
    await expect(page.getByTestId("test-outcome")).toHaveText("Signed in");
    // and the attribute-mapping editor previews the SAML rules on those attributes, the subject too
    const preview = page.getByTestId("preview-mapped");
    await expect(preview).toContainText('"Giulia"');
    await expect(preview).toContainText(GIULIA.personIdentifier);
    // the PersonIdentifier row shows its target, sub (not "Choose…")
    const targets = await page
      .getByRole("combobox", { name: /^OIDC claim \d+$/ })
      .evaluateAll((selects) => selects.map((s) => (s as HTMLSelectElement).value));
    expect(targets).toContain("sub");
  } finally {
    await idpServer.close();
  }
});
