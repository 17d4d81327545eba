/**
 * The OpenID Provider's browser endpoints on the data layer (lib/oidc/store/provider.ts): /auth
 * reads its client with the providers in one prepared statement (in provider id order); /resume reads, claims and issues the code in one transaction of
 * prepared statements, and a second visit claims nothing and issues nothing.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { authorizationPath, makeOidcApp } from "@/lib/testing/oidc-requests";
import { statementsOf } from "@/lib/testing/statements";
import { readClientApp } from "./provider";

const REDIRECT = "https://rp.example.com/cb";

/** The transaction's bounds and the OpenID Provider's own statements, in the order sent. */
const opStatements = (statements: string[]) =>
  statements.map((s) => s.toLowerCase()).filter((s) => /^(begin|commit|rollback|oidc_)/.test(s));

describe("the OpenID Provider's statements", () => {
  it("/auth reads its client with the providers in one statement, in provider id order", async () => {
    const t = await makeOidcApp(REDIRECT, ["passport"]);
    const clientId = t.app.clientId;
    // a provider that sorts first, disabled and not activated
    await kysely()
      .insertInto("appProviders")
      .values({
        appId: clientId,
        providerId: "aa_first",
        enabled: false,
        status: "rejected",
        updatedAt: new Date(),
      })
      .execute();
    const { result, statements } = await statementsOf(() => readClientApp(kysely(), clientId));
    expect(statements).toEqual(["oidc_client_app"]);

    expect(result).toEqual({
      id: clientId,
      workspaceId: t.ws.workspaceId,
      environment: "sandbox",
      name: "Test app",
      logo: null,
      redirectUris: [REDIRECT],
      pkceRequired: true,
      deletedAt: null,
      tokenEndpointAuthMethod: "client_secret_basic",
      jwks: null,
      jwksUri: null,
      requirePushedAuthorizationRequests: false,
      requireDpop: false,
      oidcProfile: "default",
      providers: [
        { providerId: "aa_first", enabled: false, status: "rejected" },
        { providerId: "passport", enabled: true, status: "activated" },
      ],
    });
    expect(await readClientApp(kysely(), "app_unknown")).toBeUndefined();
  });

  it("/resume reads, claims and issues the code in one transaction; a second visit issues nothing", async () => {
    const t = await makeOidcApp(REDIRECT, ["passport"]);
    const browser = new CookieJar();
    const path = authorizationPath({
      client_id: t.app.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid",
      provider: "passport",
      state: "st",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    });
    const auth = await browser.call("GET", path);
    expect(auth.status).toBe(303);
    const handoff = new URL(auth.headers.get("location")!);
    expect(handoff.pathname).toMatch(/^\/verify\/ver_[0-9A-Z]+\/bind$/);
    const id = handoff.pathname.split("/")[2]!;
    expect((await browser.call("GET", handoff.toString())).status).toBe(303);
    expect((await t.simulate(id, { outcome: "success" })).status).toBe(200);
    const next = new URL((await browser.call("GET", `/verify/${id}/status`)).body.next);

    const answered = await statementsOf(() => browser.call("GET", next.toString()));
    expect(answered.result.status).toBe(303);
    expect(new URL(answered.result.headers.get("location")!).searchParams.get("code")).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
    expect(opStatements(answered.statements)).toEqual([
      "begin",
      "oidc_resume_request",
      "oidc_resume_verification",
      "oidc_resume_app",
      "oidc_resume_claim",
      "oidc_code_insert",
      "commit",
    ]);
    const code = await kysely()
      .selectFrom("authorizationCodes")
      .selectAll()
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(code).toMatchObject({ appId: t.app.clientId, surface: "op", redirectUri: REDIRECT, usedAt: null });

    const again = await statementsOf(() => browser.call("GET", next.toString()));
    expect(again.result.status).toBe(400);
    expect(opStatements(again.statements)).toEqual([
      "begin",
      "oidc_resume_request",
      "oidc_resume_verification",
      "oidc_resume_app",
      "oidc_resume_claim",
      "commit",
    ]);
    expect(await countRows(kysely().selectFrom("authorizationCodes").where("verificationId", "=", id))).toBe(
      1,
    );
  });
});
