/**
 * next-auth (v4) as an OpenID Connect relying party of the broker's OP: the end-to-end test's
 * stand-in for an integrator's Next.js site. The client registration is read per request from
 * the file the test writes (the test creates the app, so its credentials are not known at start).
 */
import fs from "node:fs";
import NextAuth, { type AuthOptions } from "next-auth";

interface TRpConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  provider: string;
}

function options(cfg: TRpConfig): AuthOptions {
  return {
    secret: "e2e-relying-party-secret-0123456789",
    providers: [
      {
        id: "idv",
        name: "Identity verification",
        type: "oauth",
        wellKnown: `${cfg.issuer}/.well-known/openid-configuration`,
        clientId: cfg.clientId,
        clientSecret: cfg.clientSecret,
        client: { id_token_signed_response_alg: "ES256" },
        authorization: { params: { scope: "openid profile", provider: cfg.provider } },
        idToken: true,
        checks: ["pkce", "state", "nonce"],
        profile(profile: Record<string, unknown>) {
          const user = (profile.user ?? {}) as Record<string, unknown>;
          const name = [user.given_name, user.family_name].filter(Boolean).join(" ") || String(profile.sub);
          return { id: String(profile.sub), name };
        },
      },
    ],
    callbacks: {
      async jwt({ token, account, profile }) {
        if (account) token.acr = (profile as Record<string, unknown> | undefined)?.acr;
        return token;
      },
      async session({ session, token }) {
        return { ...session, sub: token.sub, acr: token.acr };
      },
    },
  };
}

async function handle(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  const cfg = JSON.parse(fs.readFileSync(process.env.RP_CONFIG_FILE!, "utf8")) as TRpConfig;
  const handler = NextAuth(options(cfg));
  return handler(request, context);
}

export { handle as GET, handle as POST };
