/**
 * The keys of an oidc connection through the Operator API (issue 24 §1/§3): a PUT with
 * private_key_jwt settings, keys that are never returned (PUT, GET) nor stored in clear, the
 * public halves served at /connections/{connectionId}/jwks.json, refusals naming the field, and a
 * production sign-in whose upstream (oidc-provider requiring private_key_jwt, PAR, signed request
 * objects and encrypted ID tokens) reads the client's keys from that URL. Also the migration that
 * turned stored claim mappings around.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { kysely } from "../db/client";
import { newId } from "../ids";
import { putTestConnection, testOperatorKey } from "../testing/connections";
import { startHttpServer, type TTestServer } from "../testing/http-server";
import { bearer, call } from "../testing/router";
import { startUpstreamOp, type TUpstreamOp } from "../testing/upstream-oidc";
import { makeVerifyingApp } from "../testing/verifications";
import { isolateTestDatabase } from "../testing/webhooks";
import {
  beginUpstreamAuthentication,
  completeUpstreamAuthentication,
  upstreamCallbackUrl,
} from "../verifications/upstream";

// connections are environment-wide: this file keeps its own database
isolateTestDatabase();

const privateJwk = (type: "rsa" | "ec"): crypto.JsonWebKey =>
  (type === "rsa"
    ? crypto.generateKeyPairSync("rsa", { modulusLength: 2048 })
    : crypto.generateKeyPairSync("ec", { namedCurve: "P-256" })
  ).privateKey.export({ format: "jwk" });

const SIGNING = { ...privateJwk("ec"), kid: "fc-sig-1" };
const DECRYPTION = { ...privateJwk("rsa"), kid: "fc-enc-1", alg: "RSA-OAEP-256" };
const PRIVATE_PARTS = [SIGNING.d!, DECRYPTION.d!, DECRYPTION.p!, DECRYPTION.q!];

const PROVIDER = "fr_franceconnect";
const base = `/api/production/v1/operator/connections/${PROVIDER}`;

let op: TUpstreamOp;
let server: TTestServer;
let connectionId: string;

function keySettings(extra: Record<string, unknown> = {}) {
  return {
    issuer: op?.issuer,
    clientId: "idv-broker",
    clientAuthMethod: "private_key_jwt",
    privateKeyJwk: SIGNING,
    requestObject: { signingAlg: "ES256" },
    pushedAuthorizationRequests: true,
    idTokenDecryptionKey: JSON.stringify(DECRYPTION),
    scopes: ["openid", "profile"],
    claimMapping: { prenom: "given_name", nom: "family_name" },
    acrToLoa: { eidas2: 2 },
    allowInsecureRequests: true,
    ...extra,
  };
}

beforeAll(async () => {
  server = await startHttpServer();
  // the OP reads our JWKS from the connection's URL: the connection exists first (its id stays
  // the same across PUTs), and points at the OP once the OP runs
  const first = await putTestConnection("production", PROVIDER, {
    adapter: "oidc",
    settings: { ...keySettings(), issuer: "https://upstream.example.test" },
  });
  connectionId = first.body.connectionId as string;
  op = await startUpstreamOp({
    redirectUri: upstreamCallbackUrl(),
    accounts: {
      "marianne-1789": {
        claims: { prenom: "Marianne", nom: "Dupont", birthdate: "1989-07-14" },
        acr: "eidas2",
      },
    },
    scopes: { profile: ["prenom", "nom", "birthdate"] },
    client: {
      token_endpoint_auth_method: "private_key_jwt",
      client_secret: undefined,
      require_pushed_authorization_requests: true,
      require_signed_request_object: true,
      request_object_signing_alg: "ES256",
      id_token_encrypted_response_alg: "RSA-OAEP-256",
      id_token_encrypted_response_enc: "A256GCM",
      jwks_uri: `${server.origin}/connections/${connectionId}/jwks.json`,
    },
    features: { requestObjects: { enabled: true }, encryption: { enabled: true } },
  });
  const res = await putTestConnection("production", PROVIDER, { adapter: "oidc", settings: keySettings() });
  expect(res.body.connectionId).toBe(connectionId);
});

afterAll(async () => {
  await op.close();
  await server.close();
});

/** The stored row of connection `id`. */
const connectionRow = (id: string) =>
  kysely().selectFrom("providerConnections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** A sandbox connection of `providerId` written directly, as a row stored before a migration. */
const insertConnectionRow = (providerId: string, adapter: string, settings: Record<string, unknown>) =>
  kysely()
    .insertInto("providerConnections")
    .values({
      id: newId("con"),
      environment: "sandbox",
      providerId,
      adapter,
      settings: JSON.stringify(settings),
      updatedAt: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

describe("an oidc connection's keys through the Operator API", () => {
  it("never returns the private keys nor stores them in clear", async () => {
    const headers = bearer(await testOperatorKey());
    const put = await call("PUT", base, {
      headers,
      body: { adapter: "oidc", enabled: true, settings: keySettings() },
    });
    const get = await call("GET", base, { headers });
    const list = await call("GET", "/api/production/v1/operator/connections", { headers });
    for (const res of [put, get, list]) {
      expect(res.status).toBe(200);
      for (const part of PRIVATE_PARTS) expect(res.text).not.toContain(part);
    }
    expect(get.body.settings).not.toHaveProperty("privateKeyJwk");
    expect(get.body.settings).not.toHaveProperty("idTokenDecryptionKey");
    expect(get.body.settings).toMatchObject({
      clientAuthMethod: "private_key_jwt",
      pushedAuthorizationRequests: true,
    });
    const row = await connectionRow(connectionId);
    for (const part of PRIVATE_PARTS) expect(JSON.stringify(row)).not.toContain(part);
  });

  it("serves the public halves at /connections/{connectionId}/jwks.json", async () => {
    const res = await call("GET", `/connections/${connectionId}/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/jwk-set+json");
    expect(JSON.parse(res.text)).toEqual({
      keys: [
        { kty: "EC", crv: "P-256", x: SIGNING.x, y: SIGNING.y, kid: "fc-sig-1", use: "sig" },
        { kty: "RSA", n: DECRYPTION.n, e: DECRYPTION.e, kid: "fc-enc-1", use: "enc", alg: "RSA-OAEP-256" },
      ],
    });
    expect((await call("GET", `/connections/${newId("con")}/jwks.json`)).status).toBe(404);
    expect((await call("GET", `/connections/not-an-id/jwks.json`)).status).toBe(404);
  });

  it("keeps the stored keys on a PUT that omits them, and serves no JWKS without keys", async () => {
    const { privateKeyJwk: _k, idTokenDecryptionKey: _d, ...withoutKeys } = keySettings();
    await putTestConnection("production", PROVIDER, { adapter: "oidc", settings: withoutKeys });
    const kept = await call("GET", `/connections/${connectionId}/jwks.json`);
    expect(JSON.parse(kept.text).keys.map((k: { kid: string }) => k.kid)).toEqual(["fc-sig-1", "fc-enc-1"]);

    const other = await putTestConnection("production", "de_eid", {
      adapter: "oidc",
      settings: { issuer: "https://eid.example.test", clientId: "c", clientSecret: "s3cret" },
    });
    expect((await call("GET", `/connections/${other.body.connectionId as string}/jwks.json`)).status).toBe(
      404,
    );
  });

  it("refuses a public key, a missing key and a request-object algorithm the key cannot sign, naming the field", async () => {
    const headers = bearer(await testOperatorKey());
    const before = await connectionRow(connectionId);
    const { d: _d, ...publicOnly } = SIGNING;
    const cases: [Record<string, unknown>, string][] = [
      [{ privateKeyJwk: publicOnly }, "settings.privateKeyJwk"],
      [{ idTokenDecryptionKey: { ...DECRYPTION, d: undefined } }, "settings.idTokenDecryptionKey"],
      [{ requestObject: { signingAlg: "RS256" } }, "settings.requestObject.signingAlg"],
      [{ clientAuthMethod: "client_secret_post" }, "settings.clientSecret"],
      [
        { authorizationParameters: { acr_values: "eidas2", state: "x" } },
        "settings.authorizationParameters.state",
      ],
    ];
    for (const [extra, field] of cases) {
      const res = await call("PUT", base, {
        headers,
        body: { adapter: "oidc", enabled: true, settings: keySettings(extra) },
      });
      expect(res.status, field).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    // a new connection with private_key_jwt and no key at all
    const { privateKeyJwk: _k, ...noKey } = keySettings({ requestObject: undefined });
    const missing = await call("PUT", "/api/production/v1/operator/connections/it_spid", {
      headers,
      body: { adapter: "oidc", enabled: true, settings: noKey },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { path: string }) => d.path)).toContain(
      "settings.privateKeyJwk",
    );
    const after = await connectionRow(connectionId);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("runs a production sign-in through an upstream that requires private_key_jwt, PAR, request objects and encrypted ID tokens, reading our JWKS", async () => {
    await putTestConnection("production", PROVIDER, { adapter: "oidc", settings: keySettings() });
    const t = await makeVerifyingApp([PROVIDER], "production");
    const created = await t.start({ providerId: PROVIDER, flowType: "redirect" });
    expect(created.status).toBe(201);
    const id = created.body.verificationId as string;
    const { url } = await beginUpstreamAuthentication(id);
    expect([...new URL(url).searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    const callback = await op.signIn(url, "marianne-1789");
    const done = await completeUpstreamAuthentication(id, callback);
    expect(done.status).toBe("completed");
    const info = await t.userinfo(id);
    expect(info.body).toMatchObject({
      provider_id: PROVIDER,
      user: { given_name: "Marianne", family_name: "Dupont", birthdate: "1989-07-14" },
    });
  });
});

describe("migration 20261129070000: stored claim mappings turned around", () => {
  it("inverts the claimMapping of oidc connections only", async () => {
    const migration = fs.readFileSync(
      path.resolve(
        import.meta.dirname,
        "../../prisma/migrations/20261129070000_oidc_claim_mapping_direction/migration.sql",
      ),
      "utf8",
    );
    const legacy = await insertConnectionRow("be_itsme", "oidc", {
      issuer: "https://x.test",
      claimMapping: { given_name: "prenom", birthdate: "/a/0/b" },
    });
    const plain = await insertConnectionRow("se_bankid", "oidc", {});
    const other = await insertConnectionRow("eudi_wallet", "wallet", {
      claimMapping: { given_name: "prenom" },
    });
    await sql.raw(migration).execute(kysely());
    const read = async (id: string) => (await connectionRow(id)).settings;
    expect(await read(legacy.id)).toEqual({
      issuer: "https://x.test",
      claimMapping: { prenom: "given_name", "/a/0/b": "birthdate" },
    });
    expect(await read(plain.id)).toEqual({});
    expect(await read(other.id)).toEqual({ claimMapping: { given_name: "prenom" } });
  });
});
