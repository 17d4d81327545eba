/**
 * next-auth configuration of the console: a Credentials provider over our scrypt hashes, a JWT
 * session in one HttpOnly cookie (SameSite=Lax; Secure and `__Secure-` on https), 12 hours from
 * its last renewal and at most IDV_CONSOLE_SESSION_MAX_HOURS from sign-in; an operator's session
 * carries its own end, 2 hours after sign-in (console/claims.ts).
 * The REST API reads the same cookie (lib/auth/console/credential.ts), so a page and the API agree
 * on who is signed in. Renewal (`GET /api/auth/session` runs the jwt callback) checks the session
 * first (lib/auth/console/lifetime.ts `checkSessionRenewal`): an ended one is refused, and next-auth then
 * answers an empty session and clears the cookie. Sign-out records the session's id as revoked
 * (the signOut event) before next-auth clears the cookie.
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { config } from "../config";
import { kysely } from "../db/client";
import { ApiError } from "../errors";
import { logger } from "../log";
import { clientIp } from "../rate-limit";
import { secureCookies, sessionCookieName, sessionSecret } from "./console/credential";
import { SESSION_MAX_AGE_SECONDS, signInClaims } from "./console/claims";
import { checkSessionRenewal, revokeSession, SessionEndedError } from "./console/lifetime";
import { signInWithPassword } from "./sign-in";

/** next-auth reads NEXTAUTH_URL (its own variable) for its absolute URLs; ours is PUBLIC_URL. */
export function ensureNextAuthUrl(): void {
  // eslint-disable-next-line no-restricted-properties -- next-auth reads its own variable
  process.env.NEXTAUTH_URL ??= config().publicUrl;
}

export function authOptions(): NextAuthOptions {
  ensureNextAuthUrl();
  const secure = secureCookies();
  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/", error: "/" },
    useSecureCookies: secure,
    cookies: {
      sessionToken: {
        name: sessionCookieName(),
        options: { httpOnly: true, sameSite: "lax", path: "/", secure },
      },
    },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, req) {
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers ?? {}))
            if (typeof v === "string") headers.set(k, v);
          try {
            const user = await signInWithPassword(kysely(), {
              email: String(credentials?.email ?? ""),
              password: String(credentials?.password ?? ""),
              ip: clientIp(headers),
            });
            return {
              id: user.id,
              email: user.email,
              name: user.name ?? user.email,
              isOperator: user.isOperator,
            };
          } catch (err) {
            // next-auth passes the message on as ?error=…; the sign-in page words it
            if (err instanceof ApiError && err.code === "RATE_LIMITED") throw new Error("RateLimited");
            if (err instanceof ApiError) return null;
            throw err;
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.email = user.email;
          token.name = user.name;
          Object.assign(token, signInClaims(user as { isOperator?: boolean }));
          return token;
        }
        // a renewal: throwing makes next-auth answer an empty session and clear the cookie
        await checkSessionRenewal(kysely(), token);
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub } };
      },
    },
    events: {
      async signOut({ token }) {
        await revokeSession(kysely(), token);
      },
    },
    logger: {
      error(code, metadata) {
        // an ended session refused at renewal is the rule working, not a fault
        if (metadata instanceof SessionEndedError) {
          logger.info({ code, reason: metadata.message }, "console session not renewed");
          return;
        }
        logger.error({ code, err: metadata }, "next-auth error");
      },
      warn(code) {
        logger.warn({ code }, "next-auth warning");
      },
      debug() {},
    },
  };
}
