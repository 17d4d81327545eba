/**
 * `saml` connections through the Operator API: the SP private keys sealed and never returned
 * (`secretsSet` names them), kept or dropped on a later PUT, refusals naming the field with
 * nothing stored, not for wallet providers, `metadataUrl` fetched at the PUT through the SSRF
 * guard (loopback allowed in this file, as the webhook tests do, except where the guard's refusal
 * is the point), and POST …/check answering what the metadata and certificates say.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setVariable } from "../config";
import { decryptSecret } from "../crypto/encryption";
import { kysely } from "../db/client";
import { testOperatorKey } from "../testing/connections";
import { bearer, call } from "../testing/router";
import { fixture, samlConnectionSettings, startSamlIdp } from "../testing/saml-idp";
import { isolateTestDatabase } from "../testing/webhooks";

isolateTestDatabase();
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";

const IDP = startSamlIdp("");
const OTHER_IDP = startSamlIdp("", "https://other-idp.example.test/metadata");
let served = IDP.metadataXml;
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/metadata") {
      res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(served);
    } else res.writeHead(404).end("not here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const path = (providerId: string, env = "production") => `/api/${env}/v1/operator/connections/${providerId}`;

async function put(providerId: string, settings: Record<string, unknown>, env = "production") {
  return call("PUT", path(providerId, env), {
    headers: bearer(await testOperatorKey()),
    body: { adapter: "saml", enabled: true, settings },
  });
}

async function stored(providerId: string) {
  return (
    (await kysely()
      .selectFrom("providerConnections")
      .selectAll()
      .where("environment", "=", "production")
      .where("providerId", "=", providerId)
      .executeTakeFirst()) ?? null
  );
}

describe("saml connections through the Operator API", () => {
  it("stores the metadata and certificates, seals the private keys and never returns them", async () => {
    const res = await put("nl_digid", samlConnectionSettings(IDP.metadataXml));
    expect(res.status).toBe(201);
    expect(res.text).not.toContain("PRIVATE KEY");
    expect(res.body).toMatchObject({
      adapter: "saml",
      state: "connected",
      secretsSet: ["spSigningPrivateKey", "spEncryptionPrivateKey"],
      serviceProvider: {
        entityId: "https://broker.example.test/saml/sp",
        metadataUrl: "http://localhost:3000/verify/saml/production/nl_digid/metadata",
        acsUrl: "http://localhost:3000/verify/saml/production/nl_digid/acs",
      },
      settings: {
        metadataXml: IDP.metadataXml,
        spSigningCertificate: fixture("sp-signing-cert.pem"),
        wantAssertionsSigned: true,
      },
    });
    expect(res.body.clientSecretSet).toBeUndefined();
    const row = (await stored("nl_digid"))!;
    expect(JSON.stringify(row.settings)).not.toContain("PRIVATE KEY");
    expect(Object.keys(JSON.parse(decryptSecret(row.secretsEncrypted!)) as object).sort()).toEqual([
      "spEncryptionPrivateKey",
      "spSigningPrivateKey",
    ]);
    const read = await call("GET", path("nl_digid"), { headers: bearer(await testOperatorKey()) });
    expect(read.text).not.toContain("PRIVATE KEY");
    expect(read.body.secretsSet).toEqual(["spSigningPrivateKey", "spEncryptionPrivateKey"]);
  });

  it("also takes the adapter's key-pair objects, stored the same way", async () => {
    const {
      spSigningCertificate,
      spSigningPrivateKey,
      spEncryptionCertificate,
      spEncryptionPrivateKey,
      ...rest
    } = samlConnectionSettings(IDP.metadataXml);
    const res = await put("fi_ftn", {
      ...rest,
      spSigningKeyPair: { privateKey: spSigningPrivateKey, certificate: spSigningCertificate },
      spEncryptionKeyPair: { privateKey: spEncryptionPrivateKey, certificate: spEncryptionCertificate },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain("PRIVATE KEY");
    expect(res.body.secretsSet).toEqual(["spSigningPrivateKey", "spEncryptionPrivateKey"]);
    expect(res.body.settings).toMatchObject({ spSigningCertificate, spEncryptionCertificate });
    const bad = await put("fi_ftn", { ...rest, spSigningKeyPair: { privateKey: "x", certificate: "y" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "settings.spSigningCertificate",
      "settings.spSigningPrivateKey",
    ]);
  });

  it("keeps the private keys a PUT omits, and drops the encryption key with its certificate", async () => {
    await put("dk_mitid", samlConnectionSettings(IDP.metadataXml));
    const { spSigningPrivateKey, spEncryptionPrivateKey, ...withoutKeys } = samlConnectionSettings(
      IDP.metadataXml,
      { requestedLoa: "http://eidas.europa.eu/LoA/substantial" },
    );
    expect(spSigningPrivateKey && spEncryptionPrivateKey).toBeTruthy();
    const kept = await put("dk_mitid", withoutKeys);
    expect(kept.status).toBe(200);
    expect(kept.body.secretsSet).toEqual(["spSigningPrivateKey", "spEncryptionPrivateKey"]);
    const { spEncryptionCertificate, ...noEncryption } = withoutKeys;
    expect(spEncryptionCertificate).toBeTruthy();
    const dropped = await put("dk_mitid", noEncryption);
    expect(dropped.status).toBe(200);
    expect(dropped.body.secretsSet).toEqual(["spSigningPrivateKey"]);
    const row = (await stored("dk_mitid"))!;
    expect(Object.keys(JSON.parse(decryptSecret(row.secretsEncrypted!)) as object)).toEqual([
      "spSigningPrivateKey",
    ]);
  });

  it("refuses a bad setting with 400 naming it, and stores nothing", async () => {
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ metadataXml: "<nope/>" }, "settings.metadataXml", "must be SAML 2.0 metadata"],
      [{ metadataXml: undefined }, "settings.metadataXml", "Required"],
      // the signing key of another pair
      [
        { spSigningPrivateKey: fixture("sp-encryption-key.pem") },
        "settings.spSigningPrivateKey",
        "does not belong",
      ],
      [{ spSigningCertificate: "not a certificate" }, "settings.spSigningCertificate", "PEM X.509"],
      [{ spEncryptionCertificate: undefined }, "settings.spEncryptionCertificate", "Required"],
      [
        { attributeMapping: { FirstName: "first_name_of_nobody" } },
        "settings.attributeMapping.FirstName",
        "claim",
      ],
      [{ requestedLoa: "urn:unknown" }, "settings.requestedLoa", "loaMapping"],
      [{ eidas: { spType: "federal" } }, "settings.eidas.spType", ""],
      [{ metadataUrl: "ftp://idp.example.test/metadata" }, "settings.metadataUrl", ""],
    ];
    for (const [change, field, message] of refusals) {
      const res = await put("it_spid", { ...samlConnectionSettings(IDP.metadataXml), ...change });
      expect(res.status, field).toBe(400);
      expect(res.body.error.details, field).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: field, message: expect.stringContaining(message) }),
        ]),
      );
    }
    expect(await stored("it_spid")).toBeNull();
    // a wallet provider is not connected through saml
    const wallet = await put("eudi_wallet", samlConnectionSettings(IDP.metadataXml));
    expect(wallet.status).toBe(400);
    expect(wallet.body.error.details).toEqual([expect.objectContaining({ path: "adapter" })]);
    expect(await stored("eudi_wallet")).toBeNull();
  });

  it("fetches metadataUrl at the PUT and stores the document with the URL; a failure names metadataUrl", async () => {
    const { metadataXml: _none, ...settings } = samlConnectionSettings(IDP.metadataXml, {
      metadataUrl: `${base}/metadata`,
      allowInsecureRequests: true,
    });
    expect(_none).toBeDefined();
    const res = await put("be_itsme", settings);
    expect(res.status, res.text).toBe(201);
    expect(res.body.settings).toMatchObject({
      metadataUrl: `${base}/metadata`,
      metadataXml: IDP.metadataXml,
    });

    const failures: [Record<string, unknown>, string][] = [
      [{ metadataUrl: `${base}/missing` }, "answered HTTP 404"],
      [{ metadataUrl: `${base}/metadata`, allowInsecureRequests: false }, "must use https"],
      [{ metadataUrl: "http://127.0.0.1:9/metadata" }, "could not be fetched"],
    ];
    for (const [change, message] of failures) {
      const refused = await put("ee_smart_id", { ...settings, ...change });
      expect(refused.status, message).toBe(400);
      expect(refused.body.error.details).toEqual([
        { path: "settings.metadataUrl", message: expect.stringContaining(message) },
      ]);
    }
    // the SSRF guard: loopback is refused where private networks are not allowed
    setVariable("WEBHOOK_ALLOW_PRIVATE_NETWORKS", "0");
    try {
      const guarded = await put("ee_smart_id", settings);
      expect(guarded.status).toBe(400);
      expect(guarded.body.error.details).toEqual([
        { path: "settings.metadataUrl", message: expect.stringContaining("could not be fetched") },
      ]);
    } finally {
      setVariable("WEBHOOK_ALLOW_PRIVATE_NETWORKS", "1");
    }
    expect(await stored("ee_smart_id")).toBeNull();
  });

  it("check answers the IdP's entityID, SSO URL and certificates, and re-fetches metadataUrl", async () => {
    served = IDP.metadataXml;
    const { metadataXml: _none, ...settings } = samlConnectionSettings(IDP.metadataXml, {
      metadataUrl: `${base}/metadata`,
      allowInsecureRequests: true,
    });
    expect(_none).toBeDefined();
    expect((await put("ch_swissid", settings)).status).toBe(201);
    const check = () =>
      testOperatorKey().then((key) => call("POST", `${path("ch_swissid")}/check`, { headers: bearer(key) }));
    const res = await check();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      providerId: "ch_swissid",
      ok: true,
      issuer: IDP.entityId,
      discoveredIssuer: IDP.entityId,
      issuerMatches: true,
      endpoints: { authorization: "https://idp.example-eid.test/sso" },
      keyCount: 1,
      error: null,
      saml: {
        entityId: IDP.entityId,
        ssoUrl: "https://idp.example-eid.test/sso",
        metadataUrl: `${base}/metadata`,
        metadataChanged: false,
        certificates: [
          expect.objectContaining({
            use: "idp_signing",
            subject: "CN=samlG test idp",
            notAfter: "2126-11-04T21:43:58.000Z",
          }),
          expect.objectContaining({ use: "sp_signing", subject: "CN=samlG test sp-signing" }),
          expect.objectContaining({ use: "sp_encryption", subject: "CN=samlG test sp-encryption" }),
        ],
      },
    });
    expect(res.body.warnings).toEqual(["allowInsecureRequests is set: for local testing only"]);

    // the IdP moved: a warning, the stored copy unchanged
    served = OTHER_IDP.metadataXml;
    const moved = await check();
    expect(moved.body).toMatchObject({
      ok: true,
      issuer: IDP.entityId,
      discoveredIssuer: OTHER_IDP.entityId,
      issuerMatches: false,
      saml: { metadataChanged: true },
    });
    expect(moved.body.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining("differs from the stored copy")]),
    );
    expect(((await stored("ch_swissid"))!.settings as { metadataXml: string }).metadataXml).toBe(
      IDP.metadataXml,
    );

    // gone: ok false, the connection failing
    server.removeAllListeners("request");
    server.on("request", (_req, res: http.ServerResponse) => res.writeHead(500).end());
    const failed = await check();
    expect(failed.body).toMatchObject({ ok: false, error: "metadataUrl answered HTTP 500" });
    const state = await call("GET", path("ch_swissid"), { headers: bearer(await testOperatorKey()) });
    expect(state.body.state).toBe("failing");
  });
});
