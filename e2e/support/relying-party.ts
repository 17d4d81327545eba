/**
 * A relying party of the OpenID Provider in the e2e specs: its redirect target (a node:http server
 * on 127.0.0.1 that records every authorization response it receives, by GET query or by POST form,
 * and answers 200), its app made over the real Workspace API with the OIDC settings under test, its
 * signing keys (public JWK + the private key openid-client signs with), a fetch that records what
 * openid-client sends and receives, and the end-user's sign-in in the browser: the OP's URL → the
 * hosted page → the sandbox simulator (the passport QR flow, approved on the "phone" page) → back
 * at the relying party.
 * Rules: no fixed sleeps, every wait is on a condition; the server answers only /cb with a page
 * (anything else, a webhook for instance, is 204).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { CustomFetch } from "openid-client";
import { E2E_ENV } from "./env";

/** The sandbox OP's issuer identifier as the specs (and the browser) address it. */
export const SANDBOX_ISSUER = `${E2E_ENV.PUBLIC_URL}/oidc/sandbox`;

/** The hosted page of a verification, where the OP sends the end-user's browser. */
export const HOSTED_PAGE = /\/verify\/ver_[0-9A-Z]+$/;

/** One authorization response as the relying party received it. */
export interface TCallback {
  method: string;
  /** the full URL the browser requested (with its query, if any) */
  url: URL;
  contentType: string | undefined;
  /** the response's parameters: the query of a GET, the form of a POST */
  params: URLSearchParams;
  /** the POST body as sent */
  body: string;
}

export interface TRelyingParty {
  base: string;
  /** the registered redirect_uri */
  callbackUrl: string;
  received: TCallback[];
  /** the authorization response carrying `state`, once it has arrived */
  waitFor(state: string): Promise<TCallback>;
  /** the response as the fetch API Request openid-client's authorizationCodeGrant consumes */
  asRequest(callback: TCallback): Request;
  close(): Promise<void>;
}

export async function startRelyingParty(): Promise<TRelyingParty> {
  const received: TCallback[] = [];
  let base = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      if (url.pathname !== "/cb") {
        res.writeHead(204).end();
        return;
      }
      const contentType = req.headers["content-type"];
      received.push({
        method: req.method ?? "",
        url,
        contentType,
        params: req.method === "POST" ? new URLSearchParams(body) : new URLSearchParams(url.search),
        body,
      });
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(
        '<!doctype html><html lang="en"><title>Relying party</title><h1>Back at the relying party</h1></html>',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const callbackUrl = `${base}/cb`;
  const find = (state: string) => received.find((c) => c.params.get("state") === state);
  return {
    base,
    callbackUrl,
    received,
    async waitFor(state) {
      await expect
        .poll(() => find(state) !== undefined, {
          message: `an authorization response with state ${state}`,
          timeout: 20_000,
        })
        .toBe(true);
      return find(state)!;
    },
    asRequest(callback) {
      return new Request(callback.url.href, {
        method: callback.method,
        ...(callback.method === "POST"
          ? {
              headers: { "content-type": callback.contentType ?? "application/x-www-form-urlencoded" },
              body: callback.body,
            }
          : {}),
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TOidcApp {
  clientId: string;
  clientSecret: string;
  /** the App resource as PATCH answered it */
  resource: Record<string, unknown>;
}

/** A sandbox app (passport, the starter workflow's provider, is active) with `redirectUri` and `settings`. */
export async function createOidcApp(
  request: APIRequestContext,
  workspaceKey: string,
  redirectUri: string,
  settings: Record<string, unknown>,
  name = "OIDC E2E",
): Promise<TOidcApp> {
  const headers = { Authorization: `Bearer ${workspaceKey}` };
  const created = await request.post("/api/sandbox/v1/apps", { headers, data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const app = (await created.json()) as { clientId: string; clientSecret: string };
  const patched = await request.patch(`/api/sandbox/v1/apps/${app.clientId}`, {
    headers,
    data: { redirectUris: [redirectUri], ...settings },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  return { ...app, resource: (await patched.json()) as Record<string, unknown> };
}

export interface TClientKey {
  /** the public key as registered in the app's `jwks` (kid, alg, use sig) */
  jwk: JWK;
  /** what openid-client signs with (PrivateKeyJwt, buildAuthorizationUrlWithJAR) */
  privateKey: { key: CryptoKey; kid: string };
}

/** A fresh client signing key pair. */
export async function clientKey(alg: "ES256" | "PS256" | "EdDSA" | "RS256"): Promise<TClientKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `e2e-${alg.toLowerCase()}-${Math.random().toString(36).slice(2, 10)}`;
  return {
    jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" },
    privateKey: { key: privateKey, kid },
  };
}

/** One request openid-client made, and what it got back. */
export interface TExchange {
  method: string;
  url: URL;
  /** the request's form body (PAR, token) */
  form: URLSearchParams | undefined;
  dpopProof: string | undefined;
  authorization: string | undefined;
  status: number;
  /** the JSON answer, when it was JSON */
  json: Record<string, unknown> | undefined;
  headers: Headers;
}

/** A fetch for `config[client.customFetch]` that records every exchange in `log`. */
export function recordingFetch(log: TExchange[]): CustomFetch {
  return async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    const headers = new Headers(options.headers);
    let json: Record<string, unknown> | undefined;
    if ((response.headers.get("content-type") ?? "").includes("json")) {
      json = (await response.clone().json()) as Record<string, unknown>;
    }
    log.push({
      method: options.method,
      url: new URL(url),
      form:
        options.body instanceof URLSearchParams
          ? new URLSearchParams(options.body)
          : typeof options.body === "string"
            ? new URLSearchParams(options.body)
            : undefined,
      dpopProof: headers.get("dpop") ?? undefined,
      authorization: headers.get("authorization") ?? undefined,
      status: response.status,
      json,
      headers: response.headers,
    });
    return response;
  };
}

/**
 * The end-user signs in: the browser opens the OP's authorization URL, lands on the hosted page
 * (bound to this browser), the sandbox simulator approves on the "phone" page (the passport QR
 * flow), and the hosted page follows on to the resume and the relying party.
 */
export async function signInInBrowser(
  page: Page,
  authorizationUrl: URL,
  rp: TRelyingParty,
  state: string,
): Promise<{ verificationId: string; callback: TCallback }> {
  await page.goto(authorizationUrl.href);
  // on a refusal the failure names where the browser went instead
  await expect(page).toHaveURL(HOSTED_PAGE, { timeout: 10_000 });
  const verificationId = new URL(page.url()).pathname.split("/")[2]!;
  const phone = await page.context().newPage();
  await phone.goto(`/sandbox/verify/${verificationId}?flow=qr`);
  await phone.getByTestId("sim-approve").click();
  await expect(phone.getByTestId("sim-done")).toBeVisible();
  await phone.close();
  await expect(page).toHaveURL((url) => url.origin === rp.base, { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Back at the relying party");
  return { verificationId, callback: await rp.waitFor(state) };
}
