/**
 * The app's OpenID client settings in the Apps API (issue 28 item 5): tokenEndpointAuthMethod,
 * jwks / jwksUri, requirePushedAuthorizationRequests, requireDpop and oidcProfile on the App
 * resource (create, GET, list, PATCH), through the real route handlers; their checks and
 * couplings (lib/apps/oidc-settings.ts, lib/apps/client-keys-check.ts), each refusal a 400 naming
 * the field with nothing written; the audit entry naming the changed fields.
 */
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { makeApp, makeWorkspace } from "../testing/factories";
import { bearer, call } from "../testing/router";

const appRow = (id: string) =>
  kysely().selectFrom("apps").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const JWKS_URI = "https://client.example.com/.well-known/jwks.json";
const es256 = await generateKeyPair("ES256", { extractable: true });
const publicJwk: JWK = { ...(await exportJWK(es256.publicKey)), kid: "key-1", use: "sig", alg: "ES256" };
const privateJwk: JWK = { ...(await exportJWK(es256.privateKey)), kid: "key-1" };
const otherJwk: JWK = {
  ...(await exportJWK((await generateKeyPair("EdDSA", { crv: "Ed25519" })).publicKey)),
  kid: "key-2",
};

async function setup(env: "sandbox" | "production" = "sandbox") {
  const ws = await makeWorkspace();
  const key = ws.keys[env];
  const app = await makeApp(key, env);
  const url = `/api/${env}/v1/apps/${app.clientId}`;
  const patch = (body: unknown) => call("PATCH", url, { headers: bearer(key), body });
  const get = () => call("GET", url, { headers: bearer(key) });
  return { ws, key, app, url, patch, get };
}

async function lastUpdateFields(clientId: string): Promise<unknown> {
  const audit = await kysely()
    .selectFrom("auditEvents")
    .select(["data"])
    .where("targetId", "=", clientId)
    .where("action", "=", "app.updated")
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  return (audit.data as { fields: string[] }).fields;
}

const DEFAULTS = {
  tokenEndpointAuthMethod: "client_secret_basic",
  jwks: null,
  jwksUri: null,
  requirePushedAuthorizationRequests: false,
  requireDpop: false,
  oidcProfile: "default",
};

describe("the App resource's OpenID client settings", () => {
  it("has the defaults on a new app: in the creation's answer, GET and the list", async () => {
    const { ws, key, app, get } = await setup();
    expect(app).toMatchObject(DEFAULTS);
    expect((await get()).body).toMatchObject(DEFAULTS);
    const list = await call("GET", "/api/sandbox/v1/apps", { headers: bearer(key) });
    expect(list.body.data[0]).toMatchObject({ clientId: app.clientId, ...DEFAULTS });
    const batch = await call("POST", "/api/sandbox/v1/apps/batch", {
      headers: bearer(ws.keys.sandbox),
      body: { apps: [{ name: "one" }] },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.data[0]).toMatchObject(DEFAULTS);
  });

  it("round-trips each field, stores the JWK Set as sent, and audits the changed fields", async () => {
    const { key, app, patch, get } = await setup();
    const jwks = { keys: [{ ...publicJwk, x5t: "kept-as-sent" }, otherJwk], extra: "kept" };

    const set = await patch({ jwks, tokenEndpointAuthMethod: "private_key_jwt" });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ jwks, jwksUri: null, tokenEndpointAuthMethod: "private_key_jwt" });
    expect((await get()).body.jwks).toEqual(jwks);
    // a JSON document in the column, not a string
    expect((await appRow(app.clientId)).jwks).toEqual(jwks);
    expect(await lastUpdateFields(app.clientId)).toEqual(
      expect.arrayContaining(["jwks", "tokenEndpointAuthMethod"]),
    );

    // jwksUri replaces jwks when the same PATCH removes it
    const uri = await patch({ jwks: null, jwksUri: JWKS_URI });
    expect(uri.status).toBe(200);
    expect(uri.body).toMatchObject({
      jwks: null,
      jwksUri: JWKS_URI,
      tokenEndpointAuthMethod: "private_key_jwt",
    });
    expect(await appRow(app.clientId)).toMatchObject({ jwks: null, jwksUri: JWKS_URI });
    const back = await patch({ jwksUri: null, jwks: { keys: [publicJwk] } });
    expect(back.body).toMatchObject({ jwks: { keys: [publicJwk] }, jwksUri: null });

    for (const method of ["client_secret_post", "client_secret_basic", "private_key_jwt"]) {
      const res = await patch({ tokenEndpointAuthMethod: method });
      expect(res.status).toBe(200);
      expect((await get()).body.tokenEndpointAuthMethod).toBe(method);
    }
    for (const value of [true, false]) {
      const res = await patch({ requirePushedAuthorizationRequests: value, requireDpop: !value });
      expect(res.status).toBe(200);
      expect((await get()).body).toMatchObject({
        requirePushedAuthorizationRequests: value,
        requireDpop: !value,
      });
    }
    expect(await lastUpdateFields(app.clientId)).toEqual([
      "requirePushedAuthorizationRequests",
      "requireDpop",
    ]);

    const fapi = await patch({ oidcProfile: "fapi2" });
    expect(fapi.body.oidcProfile).toBe("fapi2");
    const plain = await patch({ oidcProfile: "default" });
    expect(plain.body.oidcProfile).toBe("default");
    expect((await get()).body.oidcProfile).toBe("default");

    // the list shows them as GET does
    const list = await call("GET", "/api/sandbox/v1/apps", { headers: bearer(key) });
    expect(list.body.data[0]).toEqual((await get()).body);

    // "" removes the jwksUri as null does (a secret method first: private_key_jwt needs keys)
    await patch({ tokenEndpointAuthMethod: "client_secret_basic", jwks: null, jwksUri: JWKS_URI });
    expect((await patch({ jwksUri: "" })).body.jwksUri).toBeNull();
  });

  it("switching to fapi2 turns on PAR, DPoP and PKCE in the same write; fapi2 keeps them on", async () => {
    const { app, patch, get } = await setup();
    // start from an app with all three off
    await patch({ pkceRequired: false });
    expect((await get()).body).toMatchObject({
      pkceRequired: false,
      requirePushedAuthorizationRequests: false,
      requireDpop: false,
    });
    const res = await patch({
      oidcProfile: "fapi2",
      tokenEndpointAuthMethod: "private_key_jwt",
      jwks: { keys: [publicJwk] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      oidcProfile: "fapi2",
      tokenEndpointAuthMethod: "private_key_jwt",
      pkceRequired: true,
      requirePushedAuthorizationRequests: true,
      requireDpop: true,
    });
    expect(await appRow(app.clientId)).toMatchObject({
      oidcProfile: "fapi2",
      pkceRequired: true,
      requirePushedAuthorizationRequests: true,
      requireDpop: true,
    });
    expect(await lastUpdateFields(app.clientId)).toEqual(
      expect.arrayContaining([
        "oidcProfile",
        "tokenEndpointAuthMethod",
        "jwks",
        "pkceRequired",
        "requirePushedAuthorizationRequests",
        "requireDpop",
      ]),
    );
    // setting them true again, or switching keys in one request, is fine under fapi2
    expect((await patch({ requireDpop: true, pkceRequired: true })).status).toBe(200);
    expect((await patch({ jwks: null, jwksUri: JWKS_URI })).status).toBe(200);

    // back to "default": the switches stay as they are, and may then be turned off
    const plain = await patch({ oidcProfile: "default" });
    expect(plain.body).toMatchObject({ oidcProfile: "default", requireDpop: true, pkceRequired: true });
    const off = await patch({ requireDpop: false, tokenEndpointAuthMethod: "client_secret_basic" });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ requireDpop: false, tokenEndpointAuthMethod: "client_secret_basic" });
  });

  it("accepts an http jwksUri in the sandbox, https only in production", async () => {
    const sandbox = await setup();
    const http = await sandbox.patch({ jwksUri: "http://client.example.com/jwks.json" });
    expect(http.status).toBe(200);
    expect(http.body.jwksUri).toBe("http://client.example.com/jwks.json");

    const production = await setup("production");
    const refused = await production.patch({ jwksUri: "http://client.example.com/jwks.json" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { path: "jwksUri", message: "must use https in production" },
    ]);
    expect((await production.patch({ jwksUri: JWKS_URI })).body.jwksUri).toBe(JWKS_URI);
  });
});

describe("refusals of PATCH /v1/apps/{client_id}: 400 naming the field, nothing written", () => {
  type TState = "plain" | "jwks" | "jwksUri" | "privateKeyJwt" | "fapi2";
  /** An app in `state`, made through the API. */
  async function appIn(state: TState) {
    const made = await setup();
    const bodies: Record<TState, unknown[]> = {
      plain: [],
      jwks: [{ jwks: { keys: [publicJwk] } }],
      jwksUri: [{ jwksUri: JWKS_URI }],
      privateKeyJwt: [{ jwks: { keys: [publicJwk] }, tokenEndpointAuthMethod: "private_key_jwt" }],
      fapi2: [
        { jwks: { keys: [publicJwk] }, tokenEndpointAuthMethod: "private_key_jwt", oidcProfile: "fapi2" },
      ],
    };
    for (const body of bodies[state]) expect((await made.patch(body)).status).toBe(200);
    return made;
  }

  const refusals: {
    state: TState;
    what: string;
    body: Record<string, unknown>;
    path: string;
    message: RegExp;
  }[] = [
    // the JWK Set and its URL
    {
      state: "plain",
      what: "a private key",
      body: { jwks: { keys: [privateJwk] } },
      path: "jwks.keys[0].d",
      message: /private key member/,
    },
    {
      state: "plain",
      what: "a second key with d",
      body: { jwks: { keys: [publicJwk, { ...otherJwk, d: "AAAA" }] } },
      path: "jwks.keys[1].d",
      message: /private key member/,
    },
    {
      state: "plain",
      what: "an oct key",
      body: { jwks: { keys: [{ kty: "oct", kid: "s" }] } },
      path: "jwks.keys[0].kty",
      message: /symmetric keys/,
    },
    {
      state: "plain",
      what: "an oct key with k",
      body: { jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } },
      path: "jwks.keys[0].k",
      message: /private key member/,
    },
    {
      state: "plain",
      what: "use enc",
      body: { jwks: { keys: [{ ...publicJwk, use: "enc" }] } },
      path: "jwks.keys[0].use",
      message: /"sig"/,
    },
    {
      state: "plain",
      what: "a duplicate kid",
      body: { jwks: { keys: [publicJwk, { ...otherJwk, kid: "key-1" }] } },
      path: "jwks.keys[1].kid",
      message: /unique/,
    },
    {
      state: "plain",
      what: "an empty set",
      body: { jwks: { keys: [] } },
      path: "jwks.keys",
      message: /1 to 10 keys/,
    },
    {
      state: "plain",
      what: "keys not an array",
      body: { jwks: { keys: "none" } },
      path: "jwks.keys",
      message: /array/,
    },
    {
      state: "plain",
      what: "a bare array of keys",
      body: { jwks: [publicJwk] },
      path: "jwks",
      message: /JWK Set/,
    },
    {
      state: "plain",
      what: "a set over 16 KB",
      body: { jwks: { keys: [{ ...publicJwk, kid: "x".repeat(17000) }] } },
      path: "jwks",
      message: /16 KB/,
    },
    {
      state: "plain",
      what: "an ftp jwksUri",
      body: { jwksUri: "ftp://client.example.com/jwks" },
      path: "jwksUri",
      message: /https/,
    },
    {
      state: "plain",
      what: "a jwksUri with a fragment",
      body: { jwksUri: "https://client.example.com/jwks#keys" },
      path: "jwksUri",
      message: /fragment/,
    },
    {
      state: "plain",
      what: "a relative jwksUri",
      body: { jwksUri: "jwks.json" },
      path: "jwksUri",
      message: /absolute/,
    },
    { state: "plain", what: "a number as jwksUri", body: { jwksUri: 5 }, path: "jwksUri", message: /string/ },
    // never both
    {
      state: "plain",
      what: "jwks and jwksUri together",
      body: { jwks: { keys: [publicJwk] }, jwksUri: JWKS_URI },
      path: "jwks",
      message: /together with jwksUri/,
    },
    {
      state: "jwksUri",
      what: "jwks while jwksUri is stored",
      body: { jwks: { keys: [publicJwk] } },
      path: "jwks",
      message: /while jwksUri is set/,
    },
    {
      state: "jwks",
      what: "jwksUri while jwks is stored",
      body: { jwksUri: JWKS_URI },
      path: "jwksUri",
      message: /while jwks is set/,
    },
    // private_key_jwt needs keys
    {
      state: "plain",
      what: "private_key_jwt without keys",
      body: { tokenEndpointAuthMethod: "private_key_jwt" },
      path: "tokenEndpointAuthMethod",
      message: /needs jwks or jwksUri/,
    },
    {
      state: "privateKeyJwt",
      what: "removing its keys",
      body: { jwks: null },
      path: "jwks",
      message: /cannot be removed/,
    },
    {
      state: "privateKeyJwt",
      what: "private_key_jwt while removing its keys",
      body: { jwks: null, tokenEndpointAuthMethod: "private_key_jwt" },
      path: "tokenEndpointAuthMethod",
      message: /needs jwks/,
    },
    // the closed lists and booleans
    {
      state: "plain",
      what: "an unknown method",
      body: { tokenEndpointAuthMethod: "none" },
      path: "tokenEndpointAuthMethod",
      message: /must be one of/,
    },
    {
      state: "plain",
      what: "an unknown profile",
      body: { oidcProfile: "fapi1" },
      path: "oidcProfile",
      message: /must be one of/,
    },
    {
      state: "plain",
      what: "a string as requireDpop",
      body: { requireDpop: "yes" },
      path: "requireDpop",
      message: /boolean/,
    },
    {
      state: "plain",
      what: "a number as requirePushedAuthorizationRequests",
      body: { requirePushedAuthorizationRequests: 1 },
      path: "requirePushedAuthorizationRequests",
      message: /boolean/,
    },
    // the FAPI 2.0 profile
    {
      state: "plain",
      what: "fapi2 with a secret method",
      body: { oidcProfile: "fapi2" },
      path: "oidcProfile",
      message: /needs tokenEndpointAuthMethod private_key_jwt/,
    },
    {
      state: "jwks",
      what: "fapi2 with client_secret_post in the same request",
      body: { oidcProfile: "fapi2", tokenEndpointAuthMethod: "client_secret_post" },
      path: "tokenEndpointAuthMethod",
      message: /must stay private_key_jwt/,
    },
    {
      state: "privateKeyJwt",
      what: "fapi2 with requireDpop false in the same request",
      body: { oidcProfile: "fapi2", requireDpop: false },
      path: "requireDpop",
      message: /must stay true while oidcProfile is fapi2/,
    },
    {
      state: "fapi2",
      what: "requireDpop false",
      body: { requireDpop: false },
      path: "requireDpop",
      message: /must stay true while oidcProfile is fapi2/,
    },
    {
      state: "fapi2",
      what: "requirePushedAuthorizationRequests false",
      body: { requirePushedAuthorizationRequests: false },
      path: "requirePushedAuthorizationRequests",
      message: /must stay true while oidcProfile is fapi2/,
    },
    {
      state: "fapi2",
      what: "pkceRequired false",
      body: { pkceRequired: false },
      path: "pkceRequired",
      message: /must stay true while oidcProfile is fapi2/,
    },
    {
      state: "fapi2",
      what: "a secret method",
      body: { tokenEndpointAuthMethod: "client_secret_basic" },
      path: "tokenEndpointAuthMethod",
      message: /must stay private_key_jwt while oidcProfile is fapi2/,
    },
    {
      state: "fapi2",
      what: "removing its keys",
      body: { jwks: null },
      path: "jwks",
      message: /cannot be removed while tokenEndpointAuthMethod is private_key_jwt/,
    },
  ];

  it.each(refusals)(
    "an app in state $state refuses $what, naming $path",
    async ({ state, body, path, message }) => {
      const { app, patch } = await appIn(state);
      const before = await appRow(app.clientId);
      const res = await patch(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0].path).toBe(path);
      expect(res.body.error.details[0].message).toMatch(message);
      expect(res.body.error.message).toContain(path);
      expect(await appRow(app.clientId)).toEqual(before);
    },
  );
});
