import { decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { sha256Hex } from "@/lib/crypto/hash";
import { verifyIdToken } from "@/lib/oidc/id-token";
import { s256Challenge } from "@/lib/oidc/pkce";
import { publicJwks } from "@/lib/oidc/keys";
import { basic, bearer, call } from "@/lib/testing/router";
import { statementsOf } from "@/lib/testing/statements";
import { issueCode, makeTokenApp, makeVerification, type TEnv } from "@/lib/testing/tokens";

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

async function setup(env: TEnv = "sandbox", options: Parameters<typeof makeVerification>[1] = {}) {
  const { ws, app } = await makeTokenApp(env);
  const verification = await makeVerification(app.clientId, options);
  const creds = basic(app.clientId, app.clientSecret);
  return { ws, app, verification, creds, env };
}

const exchange = (env: TEnv, body: unknown, headers: Record<string, string> = {}) =>
  call("POST", `/api/${env}/token`, { headers, body });

async function codeRow(code: string) {
  return kysely()
    .selectFrom("authorizationCodes")
    .selectAll()
    .where("codeHash", "=", sha256Hex(code))
    .executeTakeFirstOrThrow();
}

/** The audit events of `action` on the session `verificationId`. */
const auditEvents = (action: string, verificationId: string) =>
  kysely().selectFrom("auditEvents").where("action", "=", action).where("targetId", "=", verificationId);

const ALLOWED_CLAIMS = [
  "acr",
  "amr",
  "aud",
  "auth_time",
  "exp",
  "iat",
  "iss",
  "jti",
  "nonce",
  "sub",
  "verification_id",
];

describe("POST {base_url}/token", () => {
  it("reads the client's credential and the code in one statement, then consumes the code in one", async () => {
    const { verification, creds } = await setup();
    const code = await issueCode(verification);
    // the signing key is loaded once per process: not this exchange's work
    await exchange("sandbox", { grant_type: "authorization_code", code: "warm-up" }, creds);
    const { result, statements } = await statementsOf(() =>
      exchange("sandbox", { grant_type: "authorization_code", code }, creds),
    );
    expect(result.status).toBe(200);
    expect(statements).toEqual(["oidc_grant_with_credential", "oidc_grant_consume"]);
    // refused credentials: the code is read with them but never used, nor consumed
    const second = await issueCode(verification);
    const wrong = basic(verification.appId, "cs_test_wrong");
    const refused = await exchange("sandbox", { grant_type: "authorization_code", code: second }, wrong);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("invalid_client");
    expect((await codeRow(second)).usedAt).toBeNull();
    const redeemed = await exchange("sandbox", { grant_type: "authorization_code", code: second }, creds);
    expect(redeemed.status).toBe(200);
  });

  it("exchanges a code (JSON body, HTTP Basic) for an ID token that verifies against the JWKS", async () => {
    const { app, verification, creds } = await setup();
    const code = await issueCode(verification);
    const res = await exchange("sandbox", { grant_type: "authorization_code", code }, creds);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["id_token"]);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.headers.get("content-type")).toContain("application/json");

    const token: string = res.body.id_token;
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: "ES256", typ: "JWT" });
    const jwks = await publicJwks(kysely(), "sandbox");
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);

    const claims = await verifyIdToken(kysely(), "sandbox", token, {
      issuer: "http://localhost:3000/oidc/sandbox",
      audience: app.clientId,
    });
    expect(claims.sub).toBe(verification.subject);
    expect(claims.auth_time).toBe(Math.floor(verification.verifiedAt!.getTime() / 1000));
    expect(claims.acr).toBe("urn:idv:loa:2");
    expect(claims.amr).toEqual(["passport"]);
    expect(claims.verification_id).toBe(verification.id);
    expect(claims.exp - claims.iat).toBe(300);
    expect(claims.nonce).toBeUndefined();
    // no personal data: nothing beyond the protocol claims
    for (const claim of Object.keys(claims)) expect(ALLOWED_CLAIMS).toContain(claim);

    const row = await codeRow(code);
    expect(row.usedAt).not.toBeNull();
    const audit = await auditEvents("authorization_code.redeemed", verification.id)
      .selectAll()
      .executeTakeFirst();
    expect(audit).toMatchObject({ actorId: app.clientId, environment: "sandbox" });
  });

  it("accepts a form body with client_secret_post and carries the code's nonce", async () => {
    const { app, verification } = await setup("sandbox", { loa: 3, providerId: "se-bankid" });
    const code = await issueCode(verification, { nonce: "n-0S6_WzA2Mj" });
    const res = await call("POST", "/api/sandbox/token", {
      headers: FORM,
      rawBody: form({
        grant_type: "authorization_code",
        code,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }),
    });
    expect(res.status).toBe(200);
    const claims = await verifyIdToken(kysely(), "sandbox", res.body.id_token, {
      issuer: "http://localhost:3000/oidc/sandbox",
      audience: app.clientId,
      nonce: "n-0S6_WzA2Mj",
    });
    expect(claims.acr).toBe("urn:idv:loa:3");
    expect(claims.amr).toEqual(["se-bankid"]);
  });

  it("serves production with production credentials, the production issuer and keys", async () => {
    const { app, verification, creds } = await setup("production");
    const code = await issueCode(verification);
    const res = await exchange("production", { grant_type: "authorization_code", code }, creds);
    expect(res.status).toBe(200);
    const kid = decodeProtectedHeader(res.body.id_token).kid;
    expect((await publicJwks(kysely(), "production")).keys.map((k) => k.kid)).toContain(kid);
    expect((await publicJwks(kysely(), "sandbox")).keys.map((k) => k.kid)).not.toContain(kid);
    await verifyIdToken(kysely(), "production", res.body.id_token, {
      issuer: "http://localhost:3000/oidc/production",
      audience: app.clientId,
    });
  });

  it("refuses another environment's credentials with 401 invalid_client, leaving the code unused", async () => {
    const { verification, creds } = await setup("production");
    const code = await issueCode(verification);
    const res = await exchange("sandbox", { grant_type: "authorization_code", code }, creds);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_client");
    expect((await codeRow(code)).usedAt).toBeNull();
  });

  describe("400 for malformed requests (nothing consumed)", () => {
    it.each([
      [{ grant_type: "client_credentials" }, "unsupported_grant_type", "grant_type"],
      [{ grant_type: "refresh_token" }, "unsupported_grant_type", "grant_type"],
      [{}, "invalid_request", "grant_type"],
      [{ grant_type: "authorization_code", code: undefined }, "invalid_request", "code"],
      [{ grant_type: "authorization_code", code: "" }, "invalid_request", "code"],
      [{ grant_type: "authorization_code", code: 42 }, "invalid_request", "code"],
    ])("%j → %s naming %s", async (extra, error, param) => {
      const { verification, creds } = await setup();
      const code = await issueCode(verification);
      const body = { code, ...extra };
      const res = await exchange("sandbox", body, creds);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
      expect(res.body.error_description).toContain(param);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect((await codeRow(code)).usedAt).toBeNull();
    });

    it("refuses Basic credentials and a client_secret in the body at once", async () => {
      const { app, verification, creds } = await setup();
      const code = await issueCode(verification);
      const res = await exchange(
        "sandbox",
        { grant_type: "authorization_code", code, client_id: app.clientId, client_secret: app.clientSecret },
        creds,
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      expect((await codeRow(code)).usedAt).toBeNull();
    });

    it("refuses a body client_id that differs from the Basic client", async () => {
      const { verification, creds } = await setup();
      const other = await setup();
      const code = await issueCode(verification);
      const res = await exchange(
        "sandbox",
        { grant_type: "authorization_code", code, client_id: other.app.clientId },
        creds,
      );
      expect(res.status).toBe(400);
      expect(res.body.error_description).toContain("client_id");
    });

    it("refuses repeated form parameters", async () => {
      const { verification, creds } = await setup();
      const code = await issueCode(verification);
      const res = await call("POST", "/api/sandbox/token", {
        headers: { ...FORM, ...creds },
        rawBody: `grant_type=authorization_code&code=${code}&code=${code}`,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: "invalid_request",
        error_description: "code: must not be sent more than once",
      });
    });

    it("refuses other media types (415) and bodies over 64 KB (413)", async () => {
      const { verification, creds } = await setup();
      const code = await issueCode(verification);
      const text = await call("POST", "/api/sandbox/token", {
        headers: { "content-type": "text/plain", ...creds },
        rawBody: `grant_type=authorization_code&code=${code}`,
      });
      expect(text.status).toBe(415);
      expect(text.body.error).toBe("invalid_request");
      const big = await call("POST", "/api/sandbox/token", {
        headers: { ...FORM, ...creds },
        rawBody: form({ grant_type: "authorization_code", code, padding: "x".repeat(70_000) }),
      });
      expect(big.status).toBe(413);
      expect(big.body.error).toBe("invalid_request");
      expect((await codeRow(code)).usedAt).toBeNull();
    });
  });

  describe("401 invalid_client", () => {
    it.each([
      ["a wrong secret", (app: { clientId: string }) => basic(app.clientId, "cs_test_wrong")],
      ["an unknown client", () => basic("app_01JUNKJUNKJUNKJUNKJUNKJUNK", "cs_test_x")],
      ["no credentials at all", () => ({})],
      ["a Bearer token", () => bearer("sk_workspace_test_abc")],
      ["a malformed header", () => ({ authorization: "Basic !!!" })],
    ])("for %s, with a Basic challenge, leaving the code unused", async (_why, headers) => {
      const { app, verification } = await setup();
      const code = await issueCode(verification);
      const res = await exchange("sandbox", { grant_type: "authorization_code", code }, headers(app));
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_client");
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
      expect((await codeRow(code)).usedAt).toBeNull();
    });

    it("for client_secret_post with a wrong or missing secret", async () => {
      const { app, verification } = await setup();
      const code = await issueCode(verification);
      for (const extra of [{ client_secret: "cs_test_wrong" }, {}]) {
        const res = await exchange("sandbox", {
          grant_type: "authorization_code",
          code,
          client_id: app.clientId,
          ...extra,
        });
        expect(res.status).toBe(401);
        expect(res.body.error).toBe("invalid_client");
        expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
      }
      expect((await codeRow(code)).usedAt).toBeNull();
    });

    it("for a deleted app", async () => {
      const { ws, app, verification, creds } = await setup();
      const code = await issueCode(verification);
      const del = await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, {
        headers: bearer(ws.keys.sandbox),
      });
      expect(del.status).toBe(200);
      const res = await exchange("sandbox", { grant_type: "authorization_code", code }, creds);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_client");
    });
  });

  describe("401 invalid_grant", () => {
    it("for another app's code, which stays usable by its own app", async () => {
      const mine = await setup();
      const theirs = await setup();
      const code = await issueCode(theirs.verification);
      const res = await exchange("sandbox", { grant_type: "authorization_code", code }, mine.creds);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: "invalid_grant",
        error_description: "The authorization code is invalid",
      });
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
      expect((await codeRow(code)).usedAt).toBeNull();
      const own = await exchange("sandbox", { grant_type: "authorization_code", code }, theirs.creds);
      expect(own.status).toBe(200);
    });

    it("for an unknown code", async () => {
      const { creds } = await setup();
      const res = await exchange("sandbox", { grant_type: "authorization_code", code: "not-a-code" }, creds);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_grant");
    });

    it("for a code used before, and audits the reuse", async () => {
      const { verification, creds } = await setup();
      const code = await issueCode(verification);
      expect((await exchange("sandbox", { grant_type: "authorization_code", code }, creds)).status).toBe(200);
      const again = await exchange("sandbox", { grant_type: "authorization_code", code }, creds);
      expect(again.status).toBe(401);
      expect(again.body).toEqual({
        error: "invalid_grant",
        error_description: "The authorization code has already been used",
      });
      const audit = await countRows(auditEvents("authorization_code.reused", verification.id));
      expect(audit).toBe(1);
    });

    it("for an expired code", async () => {
      const { verification, creds } = await setup();
      const code = await issueCode(verification, { ttlSeconds: 60, now: new Date(Date.now() - 61_000) });
      const res = await exchange("sandbox", { grant_type: "authorization_code", code }, creds);
      expect(res.status).toBe(401);
      expect(res.body.error_description).toBe("The authorization code has expired");
      expect((await codeRow(code)).usedAt).toBeNull();
    });

    it("for a verification that is not completed, without consuming the code", async () => {
      const { app, creds } = await setup();
      const pending = await makeVerification(app.clientId, { status: "processing" });
      const code = await issueCode(pending);
      const res = await exchange("sandbox", { grant_type: "authorization_code", code }, creds);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_grant");
      expect((await codeRow(code)).usedAt).toBeNull();
    });

    it("for a wrong redirect_uri or PKCE verifier, accepting the right ones", async () => {
      const { verification, creds } = await setup();
      const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
      const code = await issueCode(verification, {
        redirectUri: "https://shop.example/cb",
        codeChallenge: s256Challenge(verifier),
      });
      const base = { grant_type: "authorization_code", code };
      for (const body of [
        { ...base, code_verifier: verifier },
        { ...base, redirect_uri: "https://shop.example/other", code_verifier: verifier },
        { ...base, redirect_uri: "https://shop.example/cb" },
        { ...base, redirect_uri: "https://shop.example/cb", code_verifier: `${verifier.slice(1)}x` },
      ]) {
        const res = await exchange("sandbox", body, creds);
        expect(res.status).toBe(401);
        expect(res.body.error).toBe("invalid_grant");
      }
      const ok = await exchange(
        "sandbox",
        { ...base, redirect_uri: "https://shop.example/cb", code_verifier: verifier },
        creds,
      );
      expect(ok.status).toBe(200);
    });
  });

  it("lets exactly one of several concurrent exchanges of one code succeed", async () => {
    const { verification, creds } = await setup();
    const code = await issueCode(verification);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => exchange("sandbox", { grant_type: "authorization_code", code }, creds)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    expect(results.filter((r) => r.status === 401).every((r) => r.body.error === "invalid_grant")).toBe(true);
    const redeemed = await countRows(auditEvents("authorization_code.redeemed", verification.id));
    expect(redeemed).toBe(1);
  });

  it("is 404 for an unknown environment and 405 for other methods", async () => {
    const res = await call("POST", "/api/staging/token", {
      body: { grant_type: "authorization_code", code: "x" },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("ROUTE_NOT_FOUND");
    expect((await call("GET", "/api/sandbox/token")).status).toBe(405);
  });
});
