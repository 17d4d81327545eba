/**
 * "Check connection" for an `oidc` connection (issue 24): fetches the issuer's discovery document
 * and JWKS and answers what it found — issuer match, endpoints, algorithms, key count, warnings.
 * Rules:
 * - every request goes through the webhooks' SSRF guard (lib/webhooks/ssrf.ts: the addresses
 *   actually connected to are checked; private, loopback and reserved ranges refused unless
 *   WEBHOOK_ALLOW_PRIVATE_NETWORKS or `npm run dev`), GET only, redirects not followed, a time
 *   limit and a size limit per answer;
 * - nothing personal is fetched or stored: only the outcome goes to the connection's state
 *   fields (last success, or last error and when), in the caller's transaction;
 * - a failure is an answer (`ok: false`, `error`), never an exception.
 */
import http from "node:http";
import https from "node:https";
import type { Tx } from "../db/client";
import type { TEnvironment } from "../environments";
import { ApiError, notFound } from "../errors";
import type { TOidcUpstreamConfig } from "../providers/adapters/oidc";
import { findProvider } from "../providers/catalog";
import { assertAllowedHost, guardedLookup } from "../webhooks/ssrf";
import { adapterSettings, type TConnectionCheckJson } from "./schema";
import { recordConnectionOutcome, unsealSecrets } from "./service";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 512 * 1024;

/** GET `url` through the SSRF guard; the parsed JSON body of a 200, or an Error saying why not. */
export function guardedGetJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== "https:" && target.protocol !== "http:") throw new Error(`unsupported scheme`);
      assertAllowedHost(target.hostname);
    } catch (err) {
      return reject(err instanceof Error ? err : new Error(String(err)));
    }
    const transport = target.protocol === "https:" ? https : http;
    const request = transport.request(
      {
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ""),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: "GET",
        headers: { Accept: "application/json" },
        agent: false,
        lookup: guardedLookup as never,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          return reject(new Error(`${url} answered HTTP ${status}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) {
            request.destroy(new Error(`${url}: answer larger than ${MAX_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          } catch {
            reject(new Error(`${url}: the answer is not JSON`));
          }
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`${url}: timed out after ${TIMEOUT_MS} ms`)));
    request.on("error", reject);
    request.end();
  });
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

function describe(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}

/** The check itself, on a configuration (no database). */
export async function checkOidcIssuer(
  providerId: string,
  config: TOidcUpstreamConfig,
): Promise<TConnectionCheckJson> {
  const issuer = config.issuer;
  const answer: TConnectionCheckJson = {
    providerId,
    ok: false,
    issuer,
    discoveredIssuer: null,
    issuerMatches: false,
    endpoints: { authorization: null, token: null, userinfo: null, jwks: null },
    idTokenSigningAlgorithms: [],
    tokenEndpointAuthMethods: [],
    keyCount: 0,
    warnings: [],
    error: null,
    checkedAt: new Date().toISOString(),
  };
  const warn = (w: string) => answer.warnings.push(w);
  try {
    const discoveryUrl = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
    const doc = await guardedGetJson(discoveryUrl);
    if (!doc || typeof doc !== "object" || Array.isArray(doc))
      throw new Error("the discovery document is not an object");
    const d = doc as Record<string, unknown>;
    answer.discoveredIssuer = str(d.issuer);
    answer.issuerMatches = answer.discoveredIssuer === issuer;
    answer.endpoints = {
      authorization: str(d.authorization_endpoint),
      token: str(d.token_endpoint),
      userinfo: str(d.userinfo_endpoint),
      jwks: str(d.jwks_uri),
    };
    answer.idTokenSigningAlgorithms = strings(d.id_token_signing_alg_values_supported);
    answer.tokenEndpointAuthMethods = strings(d.token_endpoint_auth_methods_supported);
    if (!answer.issuerMatches)
      throw new Error(
        `the discovery document names issuer ${answer.discoveredIssuer ?? "(none)"}, not ${issuer}`,
      );
    if (!answer.endpoints.authorization || !answer.endpoints.token)
      throw new Error("the discovery document has no authorization_endpoint or token_endpoint");
    if (!answer.endpoints.jwks) throw new Error("the discovery document has no jwks_uri");
    if (!answer.endpoints.userinfo) warn("no userinfo_endpoint: only the ID token's claims will be read");
    if (!strings(d.code_challenge_methods_supported).includes("S256"))
      warn("code_challenge_methods_supported does not list S256 (PKCE is always sent)");
    const methods = answer.tokenEndpointAuthMethods;
    if (methods.length && !methods.includes("client_secret_basic") && !methods.includes("client_secret_post"))
      warn("the token endpoint offers neither client_secret_basic nor client_secret_post");
    if (answer.idTokenSigningAlgorithms.includes("none"))
      warn('the issuer offers unsigned ID tokens ("none")');
    if (config.allowInsecureRequests) warn("allowInsecureRequests is set: for local testing only");
    for (const [name, url] of Object.entries(answer.endpoints)) {
      if (url && !url.startsWith("https:")) warn(`${name} endpoint is not https`);
    }

    const jwks = await guardedGetJson(answer.endpoints.jwks);
    const keys = (jwks as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys)) throw new Error("the JWKS has no keys array");
    const signing = keys.filter(
      (k): k is Record<string, unknown> =>
        Boolean(k) && typeof k === "object" && (k as { use?: unknown }).use !== "enc",
    );
    answer.keyCount = signing.length;
    if (signing.length === 0) throw new Error("the JWKS has no signing key");
    answer.ok = true;
  } catch (err) {
    answer.error = describe(err);
  }
  return answer;
}

/** POST …/connections/{providerId}/check: the stored connection checked, its outcome recorded. */
export async function checkConnection(
  db: Tx,
  env: TEnvironment,
  providerId: string,
): Promise<TConnectionCheckJson> {
  if (!findProvider(providerId)) throw notFound(`Provider "${providerId}"`);
  const row = await db.providerConnection.findUnique({
    where: { environment_providerId: { environment: env, providerId } },
  });
  if (!row) throw notFound(`Connection of provider "${providerId}"`);
  if (row.adapter !== "oidc") {
    throw new ApiError(
      "VALIDATION_ERROR",
      `Only oidc connections can be checked (this one is ${row.adapter})`,
      {
        details: [{ path: "adapter", message: "only oidc connections can be checked" }],
      },
    );
  }
  const config = adapterSettings("oidc", row.settings, unsealSecrets(row));
  const answer = await checkOidcIssuer(providerId, config);
  await recordConnectionOutcome(db, env, providerId, answer.ok ? null : answer.error);
  return answer;
}
