/**
 * A real OpenID Provider (panva's node-oidc-provider) standing in for an upstream eID in tests:
 * it listens on 127.0.0.1 with a random port, has one confidential client (client_secret_basic,
 * PKCE required), signs ID tokens with a fresh RSA key and asks its accounts for their claims.
 * `client` and `features` change the client's registration and the OP's features, to require what
 * real eIDs require (private_key_jwt with the client's jwks, pushed authorization requests, signed
 * request objects, encrypted ID tokens). Private networks are allowed for the process (the OP is
 * on 127.0.0.1 and the adapter's requests go through the SSRF guard).
 * Its sign-in page is a tiny form handler (`POST /interaction/:uid/login` or `/abort`), driven by
 * `signIn`/`cancel` without a browser: they follow the redirects with a cookie jar and return the
 * callback URL the OP redirected to (code, state, iss — or error).
 * As a real eID, the OP authenticates at the level asked for: a sign-in whose `acr_values` names
 * a level it supports reports that `acr`, else the account's own.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Grant } from "oidc-provider";

export interface TUpstreamAccount {
  claims: Record<string, unknown>;
  /** acr the OP reports for this account's sign-ins */
  acr?: string;
  amr?: string[];
}

export interface TUpstreamOp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** "METHOD /path" of every request the OP served, in order */
  requests: string[];
  /**
   * The authorization parameters of each sign-in as the OP resolved them (from the URL, the
   * signed request object or the pushed request), at its login prompt, in order
   */
  authorizationParams: Record<string, unknown>[];
  /** signs `accountId` in at the authorization URL; resolves to the callback URL */
  signIn(authorizationUrl: string, accountId: string): Promise<URL>;
  /** the end-user cancels at the OP's sign-in page */
  cancel(authorizationUrl: string): Promise<URL>;
  /** while true the token endpoint answers 503 (an upstream outage behind a live front door) */
  tokenOutage: boolean;
  close(): Promise<void>;
}

const STANDARD_SCOPE_CLAIMS: Record<string, string[]> = {
  // eID upstreams report the assurance of every sign-in in the ID token
  openid: ["sub", "acr", "amr", "auth_time"],
  profile: ["name", "given_name", "family_name", "birthdate", "gender"],
  email: ["email", "email_verified"],
  address: ["address"],
  phone: ["phone_number", "phone_number_verified"],
};

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A minimal cookie jar: name + path, deletion by expiry, path-prefix matching. */
class CookieJar {
  private cookies = new Map<string, { name: string; value: string; path: string }>();

  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";").map((s) => s.trim());
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      let path = "/";
      let expired = false;
      for (const attribute of attributes) {
        const [key, v = ""] = attribute.split("=");
        if (key!.toLowerCase() === "path") path = v;
        if (key!.toLowerCase() === "expires" && Date.parse(v) <= Date.now()) expired = true;
        if (key!.toLowerCase() === "max-age" && Number(v) <= 0) expired = true;
      }
      const id = `${name} ${path}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  header(pathname: string): string {
    return [...this.cookies.values()]
      .filter((c) => pathname === c.path || pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }
}

export async function startUpstreamOp(options: {
  accounts: Record<string, TUpstreamAccount>;
  /** extra scopes and the claims they release, e.g. { eid: ["country_of_citizenship"] } */
  scopes?: Record<string, string[]>;
  redirectUri?: string;
  /** listen on this loopback port (an upstream that comes back after an outage); default: any */
  port?: number;
  /** client metadata merged into the registration (`client_secret: undefined` drops the secret) */
  client?: Record<string, unknown>;
  /** oidc-provider features merged into the defaults (`requestObjects`, `encryption`, …) */
  features?: Record<string, unknown>;
  /** acr values the OP supports besides its accounts' own */
  acrValues?: string[];
  /** authorization parameters the OP reads besides the standard ones (GOV.UK's `vtr`, …) */
  extraParams?: string[];
}): Promise<TUpstreamOp> {
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
  const clientId = "idv-broker";
  const clientSecret = "upstream-client-secret-0123456789";
  const redirectUri = options.redirectUri ?? "https://broker.example.test/verify/callback";
  const requests: string[] = [];
  // the acr values the OP supports (its accounts' and options.acrValues), filled in below
  const acrValues: string[] = [];
  // filled in once the server listens; `tokenOutage` is read by the request handler
  const result = { tokenOutage: false, authorizationParams: [] as Record<string, unknown>[] } as TUpstreamOp;
  // the OP needs its issuer (our random port) before it can be built; requests arrive only later
  const op: { provider?: Provider; handle?: (req: http.IncomingMessage, res: http.ServerResponse) => void } =
    {};

  async function interact(req: http.IncomingMessage, res: http.ServerResponse, action: string) {
    const provider = op.provider!;
    const form = new URLSearchParams(await readBody(req));
    const details = await provider.interactionDetails(req, res);
    if (action === "abort") {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "End-User cancelled the sign-in" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === "login") {
      const accountId = form.get("login") ?? "";
      const account = options.accounts[accountId];
      if (!account) {
        res.writeHead(400, { "content-type": "text/plain" }).end("unknown account");
        return;
      }
      result.authorizationParams.push({ ...details.params });
      const asked = String(details.params.acr_values ?? "")
        .split(" ")
        .find((value) => acrValues.includes(value));
      const acr = asked ?? account.acr;
      await provider.interactionFinished(
        req,
        res,
        {
          login: {
            accountId,
            ...(acr ? { acr } : {}),
            ...(account.amr ? { amr: account.amr } : {}),
          },
        },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // consent: grant what the client asked for
    const grant: Grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({
        accountId: details.session!.accountId!,
        clientId: String(details.params.client_id),
      });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://upstream");
    requests.push(`${req.method} ${url.pathname}`);
    if (result.tokenOutage && req.method === "POST" && url.pathname === "/token") {
      res.writeHead(503, { "content-type": "text/plain", "retry-after": "30" }).end("maintenance");
      return;
    }
    const m = /^\/interaction\/[^/]+\/(login|abort)$/.exec(url.pathname);
    if (m && req.method === "POST") {
      interact(req, res, m[1]!).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
      return;
    }
    op.handle!(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "upstream-test-key", alg: "RS256", use: "sig" };
  const scopes = { ...STANDARD_SCOPE_CLAIMS, ...options.scopes };
  acrValues.push(
    ...new Set([
      ...Object.values(options.accounts).flatMap((a) => (a.acr ? [a.acr] : [])),
      ...(options.acrValues ?? []),
    ]),
  );

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        ...options.client,
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["upstream-op-test-cookie-key"] },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    features: { devInteractions: { enabled: false }, ...options.features },
    // the client's jwks_uri is the broker on 127.0.0.1: without oidc-provider's own SSRF dispatcher
    fetch: (url: string, init: RequestInit & { dispatcher?: unknown }) =>
      globalThis.fetch(url, { ...init, dispatcher: undefined } as RequestInit),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    claims: { ...scopes, sid: null },
    scopes: Object.keys(scopes),
    acrValues,
    ...(options.extraParams ? { extraParams: options.extraParams } : {}),
    findAccount: (_ctx: unknown, id: string) => {
      const account = options.accounts[id];
      return account ? { accountId: id, claims: () => ({ sub: id, ...account.claims }) } : undefined;
    },
  });
  op.provider = provider;
  op.handle = provider.callback();

  async function drive(authorizationUrl: string, action: "login" | "abort", accountId = ""): Promise<URL> {
    const jar = new CookieJar();
    let next = new URL(authorizationUrl);
    let body: string | undefined;
    for (let hop = 0; hop < 12; hop++) {
      const res = await fetch(next, {
        method: body === undefined ? "GET" : "POST",
        redirect: "manual",
        headers: {
          cookie: jar.header(next.pathname),
          ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
        },
        ...(body === undefined ? {} : { body }),
      });
      jar.store(res.headers.getSetCookie());
      const location = res.headers.get("location");
      if (!location)
        throw new Error(`upstream OP answered ${res.status} at ${next.pathname}: ${await res.text()}`);
      const target = new URL(location, next);
      if (`${target.origin}${target.pathname}` === redirectUri) return target;
      if (/^\/interaction\/[^/]+$/.test(target.pathname)) {
        next = new URL(`${target.pathname}/${action}`, target);
        body = new URLSearchParams({ login: accountId }).toString();
      } else {
        next = target;
        body = undefined;
      }
    }
    throw new Error("upstream OP: too many redirects");
  }

  Object.assign(result, {
    issuer,
    clientId,
    clientSecret,
    redirectUri,
    requests,
    signIn: (url: string, accountId: string) => drive(url, "login", accountId),
    cancel: (url: string) => drive(url, "abort"),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
  return result;
}
