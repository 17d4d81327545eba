/**
 * DPoP (RFC 9449) at the OpenID Provider's /token and /userinfo over real HTTP: openid-client 6
 * end to end (nonce retry included), and hand-made proofs (jose) for every refusal. A second
 * instance (its own process, same database) shows the replay table is shared.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { kysely } from "@/lib/db/client";
import { accessTokenHash, currentDpopNonce } from "@/lib/oidc/dpop";
import { CLIENT_JWT_ALGS } from "@/lib/oidc/profile";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { startHttpServer, type TTestServer } from "@/lib/testing/http-server";
import { makeOidcApp } from "@/lib/testing/oidc-requests";
import { issueCode } from "@/lib/testing/tokens";

const REDIRECT = "https://rp.example.com/cb";

let server: TTestServer;
let issuer: string;

beforeAll(async () => {
  server = await startHttpServer();
  process.env.PUBLIC_URL = server.origin;
  issuer = `${server.origin}/oidc/sandbox`;
});
afterAll(async () => {
  await server.close();
});

type TApp = Awaited<ReturnType<typeof makeOidcApp>>;
const oidcApp = () => makeOidcApp(REDIRECT, ["passport"], { pkceRequired: false });

interface TKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}

async function newKey(alg = "ES256"): Promise<TKey> {
  const pair = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(pair.publicKey);
  return { ...pair, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

/** A DPoP proof for /token by default: POST, htu {issuer}/token, now, fresh jti, current nonce. */
async function proof(key: TKey, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({
    htm: "POST",
    htu: `${issuer}/token`,
    iat: Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
    nonce: currentDpopNonce(),
    ...claims,
  })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk })
    .sign(key.privateKey);
}

/** An OP code for a completed session of `t` (optionally bound to a DPoP key by dpop_jkt). */
async function opCode(t: TApp, dpopJkt?: string): Promise<string> {
  // a session completed by the sandbox (its userinfo sealed), as the OP's resume finds it
  const started = await t.start({ providerId: "passport" });
  const id = started.body.verificationId as string;
  expect((await t.simulate(id, { outcome: "success" })).status).toBe(200);
  return issueCode(
    { id, appId: t.app.clientId, environment: "sandbox" },
    {
      surface: "op",
      redirectUri: REDIRECT,
      ...(dpopJkt !== undefined ? { dpopJkt } : {}),
    },
  );
}

async function tokenRequest(t: TApp, code: string, dpop?: string | string[], origin = server.origin) {
  const headers = new Headers({
    "content-type": "application/x-www-form-urlencoded",
    authorization: t.creds.authorization,
  });
  for (const value of dpop === undefined ? [] : Array.isArray(dpop) ? dpop : [dpop])
    headers.append("DPoP", value);
  const res = await fetch(`${origin}/oidc/sandbox/token`, {
    method: "POST",
    headers,
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT }),
  });
  return { res, body: (await res.json()) as Record<string, string> };
}

const codeUsed = async (code: string) =>
  (
    await kysely()
      .selectFrom("authorizationCodes")
      .select("usedAt")
      .where("codeHash", "=", sha256Hex(code))
      .executeTakeFirstOrThrow()
  ).usedAt !== null;

async function expectTokenError(
  answer: Awaited<ReturnType<typeof tokenRequest>>,
  error: string,
  description: RegExp,
  code?: string,
) {
  expect(answer.res.status).toBe(400);
  expect(answer.body.error).toBe(error);
  expect(answer.body.error_description).toMatch(description);
  if (code !== undefined) expect(await codeUsed(code)).toBe(false);
}

/** A DPoP-bound access token of `key` for a new app. */
async function boundToken(key: TKey) {
  const t = await oidcApp();
  const answer = await tokenRequest(t, await opCode(t), await proof(key));
  expect(answer.res.status).toBe(200);
  expect(answer.body.token_type).toBe("DPoP");
  return { t, accessToken: answer.body.access_token! };
}

async function userinfo(
  accessToken: string,
  options: { scheme?: string; dpop?: string; method?: "GET" | "POST" } = {},
) {
  const headers: Record<string, string> = { authorization: `${options.scheme ?? "DPoP"} ${accessToken}` };
  if (options.dpop !== undefined) headers.dpop = options.dpop;
  const res = await fetch(`${issuer}/userinfo`, { method: options.method ?? "GET", headers });
  return { res, body: (await res.json()) as Record<string, string> };
}

const userinfoProof = (key: TKey, accessToken: string, claims: Record<string, unknown> = {}) =>
  proof(key, { htm: "GET", htu: `${issuer}/userinfo`, ath: accessTokenHash(accessToken), ...claims });

describe("openid-client with DPoP", () => {
  it("gets a DPoP-bound token after the nonce retry, and reads userinfo with proofs", async () => {
    const t = await oidcApp();
    const calls: { url: string; status: number; body: string }[] = [];
    const config = await client.discovery(
      new URL(issuer),
      t.app.clientId,
      undefined,
      client.ClientSecretBasic(t.app.clientSecret),
      { execute: [client.allowInsecureRequests] },
    );
    config[client.customFetch] = async (url, options) => {
      const res = await fetch(url, options as RequestInit);
      calls.push({ url, status: res.status, body: await res.clone().text() });
      return res;
    };
    const keyPair = await client.randomDPoPKeyPair("ES256");
    const DPoP = client.getDPoPHandle(config, keyPair);
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid",
      state,
      provider: "passport",
    });

    const browser = new CookieJar();
    const started = await browser.fetch(url.href);
    const handoff = new URL(started.headers.get("location")!);
    const id = handoff.pathname.split("/")[2]!;
    await browser.fetch(handoff.toString());
    expect((await t.simulate(id, { outcome: "success" })).status).toBe(200);
    const status = (await (await browser.fetch(`${server.origin}/verify/${id}/status`)).json()) as {
      next: string;
    };
    const resumed = await browser.fetch(status.next);
    const location = new URL(resumed.headers.get("location")!);

    const tokens = await client.authorizationCodeGrant(
      config,
      location,
      { expectedState: state },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type.toLowerCase()).toBe("dpop");
    // the first attempt carried no nonce: 400 use_dpop_nonce, then the retry with it succeeded
    const tokenCalls = calls.filter((c) => c.url.endsWith("/token"));
    expect(tokenCalls.map((c) => c.status)).toEqual([400, 200]);
    expect(JSON.parse(tokenCalls[0]!.body).error).toBe("use_dpop_nonce");

    const row = await kysely()
      .selectFrom("oidcAccessTokens")
      .select("dpopJkt")
      .where("tokenHash", "=", sha256Hex(tokens.access_token))
      .executeTakeFirstOrThrow();
    expect(row.dpopJkt).toBe(await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), "sha256"));

    const claims = tokens.claims()!;
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP });
    expect(info).toEqual((await t.userinfo(id)).body);

    // the bound token presented as Bearer is refused, with both challenges
    const asBearer = await userinfo(tokens.access_token, { scheme: "Bearer" });
    expect(asBearer.res.status).toBe(401);
    expect(asBearer.body.error).toBe("invalid_token");
    const challenge = asBearer.res.headers.get("www-authenticate")!;
    expect(challenge).toMatch(/^DPoP error="invalid_token", error_description="[^"]+", algs="[^"]+"/);
    expect(challenge).toContain(`algs="${CLIENT_JWT_ALGS.join(" ")}"`);
    expect(challenge).toContain('Bearer realm="userinfo"');
  });
});

describe("/token with DPoP proofs", () => {
  it("asks for the nonce (DPoP-Nonce header) without using the code, then binds the token", async () => {
    const t = await oidcApp();
    const key = await newKey();
    const code = await opCode(t);
    const first = await tokenRequest(t, code, await proof(key, { nonce: undefined }));
    await expectTokenError(first, "use_dpop_nonce", /nonce/, code);
    const nonce = first.res.headers.get("dpop-nonce");
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stale = await tokenRequest(t, code, await proof(key, { nonce: "made-up" }));
    await expectTokenError(stale, "use_dpop_nonce", /nonce/, code);

    const ok = await tokenRequest(t, code, await proof(key, { nonce }));
    expect(ok.res.status).toBe(200);
    expect(ok.body.token_type).toBe("DPoP");
    expect(ok.res.headers.get("dpop-nonce")).toBe(nonce);
    const row = await kysely()
      .selectFrom("oidcAccessTokens")
      .select("dpopJkt")
      .where("tokenHash", "=", sha256Hex(ok.body.access_token!))
      .executeTakeFirstOrThrow();
    expect(row.dpopJkt).toBe(key.jkt);
  });

  it("without a proof and without a requirement, the token is a Bearer token as before", async () => {
    const t = await oidcApp();
    const ok = await tokenRequest(t, await opCode(t));
    expect(ok.res.status).toBe(200);
    expect(ok.body.token_type).toBe("Bearer");
    expect(ok.res.headers.get("dpop-nonce")).toBeNull();
  });

  it.each([
    ["a wrong htu", { htu: "https://idv.example/oidc/sandbox/token" }, /htu/],
    ["the userinfo URL as htu", { htu: "USERINFO" }, /htu/],
    ["a wrong htm", { htm: "GET" }, /htm/],
    ["a stale iat", { iat: Math.floor(Date.now() / 1000) - 600 }, /iat/],
    ["an iat in the future", { iat: Math.floor(Date.now() / 1000) + 600 }, /iat/],
    ["no jti", { jti: undefined }, /jti/],
  ])("refuses a proof with %s: 400 invalid_dpop_proof, code unused", async (_label, claims, description) => {
    const t = await oidcApp();
    const code = await opCode(t);
    const fixed =
      "htu" in claims && claims.htu === "USERINFO" ? { ...claims, htu: `${issuer}/userinfo` } : claims;
    const answer = await tokenRequest(t, code, await proof(await newKey(), fixed));
    await expectTokenError(answer, "invalid_dpop_proof", description, code);
    expect(answer.res.headers.get("dpop-nonce")).toBe(currentDpopNonce());
  });

  it("refuses two DPoP headers and a proof signed by another key than its jwk", async () => {
    const t = await oidcApp();
    const code = await opCode(t);
    const key = await newKey();
    await expectTokenError(
      await tokenRequest(t, code, [await proof(key), await proof(key)]),
      "invalid_dpop_proof",
      /more than one/,
      code,
    );
    const other = await newKey();
    const forged = await new SignJWT({
      htm: "POST",
      htu: `${issuer}/token`,
      iat: Math.floor(Date.now() / 1000),
      jti: crypto.randomUUID(),
      nonce: currentDpopNonce(),
    })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk })
      .sign(other.privateKey);
    await expectTokenError(await tokenRequest(t, code, forged), "invalid_dpop_proof", /signature/, code);
  });

  it("refuses a replayed proof (same jti)", async () => {
    const t = await oidcApp();
    const key = await newKey();
    const once = await proof(key);
    expect((await tokenRequest(t, await opCode(t), once)).res.status).toBe(200);
    const code = await opCode(t);
    await expectTokenError(await tokenRequest(t, code, once), "invalid_dpop_proof", /already used/, code);
  });

  it("a code bound by dpop_jkt needs a proof of that key: none or another key is invalid_grant", async () => {
    const t = await oidcApp();
    const key = await newKey();
    const code = await opCode(t, key.jkt);
    await expectTokenError(await tokenRequest(t, code), "invalid_grant", /dpop_jkt/, code);
    await expectTokenError(
      await tokenRequest(t, code, await proof(await newKey())),
      "invalid_grant",
      /dpop_jkt/,
      code,
    );
    const ok = await tokenRequest(t, code, await proof(key));
    expect(ok.res.status).toBe(200);
    expect(ok.body.token_type).toBe("DPoP");
  });

  it("an app that requires DPoP gets no token without a proof", async () => {
    const t = await oidcApp();
    await kysely().updateTable("apps").set({ requireDpop: true }).where("id", "=", t.app.clientId).execute();
    const code = await opCode(t);
    await expectTokenError(await tokenRequest(t, code), "invalid_request", /DPoP proof/, code);
    const ok = await tokenRequest(t, code, await proof(await newKey()));
    expect(ok.res.status).toBe(200);
    expect(ok.body.token_type).toBe("DPoP");
  });

  it("fapi2 (private_key_jwt): no token without a proof, RS256 proofs refused, ES256 bound", async () => {
    const t = await oidcApp();
    const clientKey = await newKey();
    await kysely()
      .updateTable("apps")
      .set({
        oidcProfile: "fapi2",
        tokenEndpointAuthMethod: "private_key_jwt",
        jwks: JSON.stringify({ keys: [{ ...clientKey.jwk, kid: "k1", alg: "ES256", use: "sig" }] }),
      })
      .where("id", "=", t.app.clientId)
      .execute();
    const assertion = () =>
      new SignJWT({ jti: crypto.randomUUID() })
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .setIssuer(t.app.clientId)
        .setSubject(t.app.clientId)
        .setAudience(issuer)
        .setIssuedAt()
        .setExpirationTime("1m")
        .sign(clientKey.privateKey);
    const send = async (code: string, dpop?: string) => {
      const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
      if (dpop !== undefined) headers.set("DPoP", dpop);
      const res = await fetch(`${issuer}/token`, {
        method: "POST",
        headers,
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          client_id: t.app.clientId,
          client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          client_assertion: await assertion(),
        }),
      });
      return { res, body: (await res.json()) as Record<string, string> };
    };
    const code = await opCode(t);
    await expectTokenError(await send(code), "invalid_request", /DPoP proof/, code);
    const rsa = await newKey("RS256");
    const rs256 = await new SignJWT({
      htm: "POST",
      htu: `${issuer}/token`,
      iat: Math.floor(Date.now() / 1000),
      jti: crypto.randomUUID(),
      nonce: currentDpopNonce(),
    })
      .setProtectedHeader({ alg: "RS256", typ: "dpop+jwt", jwk: rsa.jwk })
      .sign(rsa.privateKey);
    await expectTokenError(await send(code, rs256), "invalid_dpop_proof", /alg/, code);
    const ok = await send(code, await proof(await newKey()));
    expect(ok.res.status).toBe(200);
    expect(ok.body.token_type).toBe("DPoP");
  });
});

describe("/userinfo with DPoP-bound tokens", () => {
  it("answers a proof of the bound key, GET and POST, with a DPoP-Nonce header", async () => {
    const key = await newKey();
    const { accessToken } = await boundToken(key);
    const got = await userinfo(accessToken, { dpop: await userinfoProof(key, accessToken) });
    expect(got.res.status).toBe(200);
    expect(got.body.sub).toEqual(expect.any(String));
    expect(got.res.headers.get("dpop-nonce")).toBe(currentDpopNonce());
    const posted = await userinfo(accessToken, {
      method: "POST",
      dpop: await userinfoProof(key, accessToken, { htm: "POST" }),
    });
    expect(posted.res.status).toBe(200);
  });

  it.each([
    [
      "as Bearer",
      "invalid_token",
      async (key: TKey, at: string) => ({ scheme: "Bearer", dpop: await userinfoProof(key, at) }),
    ],
    ["without a proof", "invalid_token", async () => ({})],
    [
      "with another key's proof",
      "invalid_token",
      async (_key: TKey, at: string) => ({ dpop: await userinfoProof(await newKey(), at) }),
    ],
    [
      "with an ath of another token",
      "invalid_dpop_proof",
      async (key: TKey) => ({ dpop: await userinfoProof(key, "other-token") }),
    ],
    [
      "with the /token htu",
      "invalid_dpop_proof",
      async (key: TKey, at: string) => ({ dpop: await userinfoProof(key, at, { htu: `${issuer}/token` }) }),
    ],
    [
      "with a POST proof on GET",
      "invalid_dpop_proof",
      async (key: TKey, at: string) => ({ dpop: await userinfoProof(key, at, { htm: "POST" }) }),
    ],
  ] as const)("refuses the bound token %s: 401 %s with a DPoP challenge", async (_label, error, options) => {
    const key = await newKey();
    const { accessToken } = await boundToken(key);
    const answer = await userinfo(accessToken, await options(key, accessToken));
    expect(answer.res.status).toBe(401);
    expect(answer.body.error).toBe(error);
    const challenge = answer.res.headers.get("www-authenticate")!;
    expect(challenge.startsWith(`DPoP error="${error}"`)).toBe(true);
    expect(challenge).toContain('Bearer realm="userinfo"');
  });

  it("asks for the nonce with 401 use_dpop_nonce and a DPoP-Nonce header", async () => {
    const key = await newKey();
    const { accessToken } = await boundToken(key);
    const answer = await userinfo(accessToken, {
      dpop: await userinfoProof(key, accessToken, { nonce: undefined }),
    });
    expect(answer.res.status).toBe(401);
    expect(answer.res.headers.get("www-authenticate")).toMatch(/^DPoP error="use_dpop_nonce"/);
    expect(answer.res.headers.get("dpop-nonce")).toBe(currentDpopNonce());
  });

  it("refuses a Bearer token presented with the DPoP scheme; challenges with both schemes", async () => {
    const t = await oidcApp();
    const bearer = await tokenRequest(t, await opCode(t));
    expect(bearer.body.token_type).toBe("Bearer");
    const key = await newKey();
    const answer = await userinfo(bearer.body.access_token!, {
      dpop: await userinfoProof(key, bearer.body.access_token!),
    });
    expect(answer.res.status).toBe(401);
    expect(answer.body.error).toBe("invalid_token");
    // used as Bearer it still works
    expect((await userinfo(bearer.body.access_token!, { scheme: "Bearer" })).res.status).toBe(200);
    const none = await fetch(`${issuer}/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(
      `Bearer realm="userinfo", DPoP algs="${CLIENT_JWT_ALGS.join(" ")}"`,
    );
  });
});

describe("a second instance", () => {
  let b: ChildProcess | undefined;
  let bOrigin: string;

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port: p } = s.address() as net.AddressInfo;
        s.close(() => resolve(p));
      });
    });
    const root = path.resolve(import.meta.dirname, "..", "..");
    b = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "lib/testing/http-server.ts")], {
      cwd: root,
      env: {
        ...process.env,
        IDV_TEST_PORT: String(port),
        PUBLIC_URL: server.origin,
        IDV_VALIDATE_RESPONSES: "",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    bOrigin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("instance B did not start")), 20_000);
      b!.stdout!.on("data", (chunk: Buffer) => {
        const m = /LISTENING (\S+)/.exec(chunk.toString());
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
  });
  afterAll(() => {
    b?.kill("SIGTERM");
  });

  it("accepts this instance's nonce and refuses a proof already used here", async () => {
    const t = await oidcApp();
    const key = await newKey();
    const once = await proof(key);
    expect((await tokenRequest(t, await opCode(t), once)).res.status).toBe(200);
    const code = await opCode(t);
    await expectTokenError(
      await tokenRequest(t, code, once, bOrigin),
      "invalid_dpop_proof",
      /already used/,
      code,
    );
    const ok = await tokenRequest(t, code, await proof(key), bOrigin);
    expect(ok.res.status).toBe(200);
    expect(ok.body.token_type).toBe("DPoP");
  });
});
