/**
 * One browser's sign-in through the sandbox OpenID Provider over real HTTP, for integration
 * tests of the OP's request forms (PAR, JAR): /auth → the hosted page (bound to the browser) →
 * the sandbox simulator → the resume → the client's redirect. Also an app's OIDC client settings
 * written straight to its row (issue 28's columns).
 */
import { expect } from "vitest";
import { kysely } from "../db/client";
import { CookieJar } from "./cookie-jar";

/** The error code of an OP error page (data-error), or undefined. */
export function errorPageCode(html: string): string | undefined {
  return /data-error="([^"]+)"/.exec(html)?.[1];
}

/** Sets `settings` (apps columns: jwks, requirePushedAuthorizationRequests, oidcProfile …) on app `clientId`. */
export async function setOidcSettings(
  clientId: string,
  settings: {
    tokenEndpointAuthMethod?: string;
    jwks?: unknown;
    jwksUri?: string | null;
    requirePushedAuthorizationRequests?: boolean;
    requireDpop?: boolean;
    oidcProfile?: string;
    pkceRequired?: boolean;
  },
): Promise<void> {
  const { jwks, ...rest } = settings;
  await kysely()
    .updateTable("apps")
    .set({ ...rest, ...(jwks !== undefined ? { jwks: jwks === null ? null : JSON.stringify(jwks) } : {}) })
    .where("id", "=", clientId)
    .execute();
}

export function signInFlow(origin: string) {
  /** /auth → 303 to the hosted page's hand-off, followed: the session id and the browser. */
  async function startSignIn(url: string, browser = new CookieJar()) {
    const started = await browser.fetch(url.startsWith("http") ? url : `${origin}${url}`);
    expect(started.status, await started.clone().text()).toBe(303);
    const handoff = new URL(started.headers.get("location")!);
    expect(handoff.pathname).toMatch(/^\/verify\/ver_[0-9A-Z]+\/bind$/);
    const id = handoff.pathname.split("/")[2]!;
    expect((await browser.fetch(handoff.toString())).status).toBe(303);
    return { id, browser };
  }

  /** The whole sign-in, completed by the simulator: the client's redirect. */
  async function signIn(
    simulate: (id: string, body: Record<string, unknown>) => Promise<{ status: number }>,
    url: string,
  ) {
    const { id, browser } = await startSignIn(url);
    expect((await simulate(id, { outcome: "success" })).status).toBe(200);
    const status = (await (await browser.fetch(`${origin}/verify/${id}/status`)).json()) as { next?: string };
    expect(status.next).toMatch(/\/resume\/[A-Za-z0-9_-]{43}\?p=[0-9a-f]{64}$/);
    const resumed = await browser.fetch(status.next!);
    expect(resumed.status).toBe(303);
    return { id, location: new URL(resumed.headers.get("location")!) };
  }

  return { startSignIn, signIn };
}
