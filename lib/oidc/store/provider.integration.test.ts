/**
 * The OpenID Provider's browser endpoints on the data layer (lib/oidc/store/provider.ts): /auth
 * reads its client with the providers in one prepared statement, as Prisma's `include` gave them
 * (in provider id order); /resume reads, claims and issues the code in one transaction of
 * prepared statements, and a second visit claims nothing and issues nothing.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { prisma } from "../../testing/prisma";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { authorizationPath, makeOidcApp } from "@/lib/testing/oidc-requests";
import { statementsOf } from "@/lib/testing/statements";
import { readClientApp } from "./provider";

const REDIRECT = "https://rp.example.com/cb";

/** The transaction's bounds and the OpenID Provider's own statements, in the order sent. */
const opStatements = (statements: string[]) =>
  statements.map((s) => s.toLowerCase()).filter((s) => /^(begin|commit|rollback|oidc_)/.test(s));

describe("the OpenID Provider's statements", () => {
  it("/auth reads its client with the providers in one statement, as Prisma's include gave them", async () => {
    const t = await makeOidcApp(REDIRECT, ["passport"]);
    const clientId = t.app.clientId;
    // a provider that sorts first, disabled and not activated
    await prisma().appProvider.create({
      data: { appId: clientId, providerId: "aa_first", enabled: false, status: "rejected" },
    });
    const { result, statements } = await statementsOf(() => readClientApp(kysely(), clientId));
    expect(statements).toEqual(["oidc_client_app"]);

    const viaPrisma = await prisma().app.findUniqueOrThrow({
      where: { id: clientId },
      include: { providers: true },
    });
    expect(result).toEqual({
      id: viaPrisma.id,
      workspaceId: viaPrisma.workspaceId,
      environment: "sandbox",
      name: viaPrisma.name,
      logo: viaPrisma.logo,
      redirectUris: [REDIRECT],
      pkceRequired: viaPrisma.pkceRequired,
      deletedAt: null,
      providers: viaPrisma.providers
        .map(({ providerId, enabled, status }) => ({ providerId, enabled, status }))
        .sort((a, b) => a.providerId.localeCompare(b.providerId)),
    });
    expect(result?.providers.map((p) => p.providerId)).toEqual(["aa_first", "passport"]);
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
    const code = await prisma().authorizationCode.findFirstOrThrow({ where: { verificationId: id } });
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
    expect(await prisma().authorizationCode.count({ where: { verificationId: id } })).toBe(1);
  });
});
