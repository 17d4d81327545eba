/**
 * "Check connection" of an `oidc` connection: fetches the issuer's discovery document and JWKS
 * and answers what it found — issuer match, endpoints, algorithms, key count, warnings.
 * Rules:
 * - every request goes through the webhooks' SSRF guard (lib/webhooks/ssrf.ts: the addresses
 *   actually connected to are checked; private, loopback and reserved ranges refused unless
 *   WEBHOOK_ALLOW_PRIVATE_NETWORKS or `npm run dev`), GET only, redirects not followed, a time
 *   limit and a size limit per answer;
 * - nothing personal is fetched; a failure is an answer (`ok: false`, `error`), never an exception.
 */
import { X509Certificate } from "node:crypto";
import { describeFetchError, guardedFetch } from "../../http/guarded-fetch";
import { clientAuthMethodOf } from "../../providers/adapters/oidc-client";
import type { TOidcUpstreamConfig } from "../../providers/adapters/oidc-settings";
import { signingAlgOf } from "../../providers/adapters/oidc-keys";
import type { TConnectionCheckJson } from "../check-json";

const TIMEOUT_MS = 10_000;
const DAY_MS = 24 * 3600 * 1000;
const EXPIRY_WARNING_DAYS = 30;

/**
 * Warnings for the certificates an issuer's JWKS carries (`x5c`, the first one of each key):
 * expired, not yet valid, or expiring within 30 days of `now` — the issuer rotates its keys, and
 * an operator should know before sign-ins fail. A certificate that does not parse is a warning too.
 */
export function jwksCertificateWarnings(keys: readonly Record<string, unknown>[], now: Date): string[] {
  const warnings: string[] = [];
  for (const [i, key] of keys.entries()) {
    const chain = key.x5c;
    if (!Array.isArray(chain) || typeof chain[0] !== "string") continue;
    const what = `the certificate of signing key ${typeof key.kid === "string" ? `"${key.kid}"` : i + 1}`;
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(Buffer.from(chain[0], "base64"));
    } catch {
      warnings.push(`${what} does not parse as an X.509 certificate`);
      continue;
    }
    const notAfter = new Date(cert.validTo);
    const notBefore = new Date(cert.validFrom);
    if (notAfter.getTime() <= now.getTime()) warnings.push(`${what} expired on ${notAfter.toISOString()}`);
    else if (notAfter.getTime() - now.getTime() <= EXPIRY_WARNING_DAYS * DAY_MS)
      warnings.push(`${what} expires on ${notAfter.toISOString()}, within ${EXPIRY_WARNING_DAYS} days`);
    if (notBefore.getTime() > now.getTime())
      warnings.push(`${what} is not valid before ${notBefore.toISOString()}`);
  }
  return warnings;
}
const MAX_BYTES = 512 * 1024;

/** GET `url` through the SSRF guard; the parsed JSON body of a 200, or an Error saying why not. */
export async function guardedGetJson(url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await guardedFetch(url, {
      headers: { Accept: "application/json" },
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "TimeoutError")
      throw new Error(`${url}: timed out after ${TIMEOUT_MS} ms`);
    throw new Error(`${url}: ${describeFetchError(err)}`);
  }
  if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}`);
  try {
    return JSON.parse(await response.text());
  } catch {
    throw new Error(`${url}: the answer is not JSON`);
  }
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
    const method = clientAuthMethodOf(config, { token_endpoint_auth_methods_supported: methods });
    if (methods.length && !methods.includes(method))
      warn(`the token endpoint does not list ${method} (token_endpoint_auth_methods_supported)`);
    if (config.pushedAuthorizationRequests && !str(d.pushed_authorization_request_endpoint))
      warn("pushedAuthorizationRequests is set but the issuer has no pushed_authorization_request_endpoint");
    const requestAlgs = strings(d.request_object_signing_alg_values_supported);
    if (config.requestObject && config.privateKeyJwk) {
      const alg = signingAlgOf(config.privateKeyJwk, config.requestObject.signingAlg);
      if (!requestAlgs.includes(alg))
        warn(`request_object_signing_alg_values_supported does not list ${alg} (requestObject)`);
    }
    if (config.idTokenDecryptionKey && strings(d.id_token_encryption_alg_values_supported).length === 0)
      warn("idTokenDecryptionKey is set but the issuer lists no id_token_encryption_alg_values_supported");
    // the level asked for (authorizationParameters.acr_values) among the levels the issuer lists
    const acrOffered = strings(d.acr_values_supported);
    const acrAsked = config.authorizationParameters?.acr_values?.split(" ").filter(Boolean) ?? [];
    const acrMissing = acrAsked.filter((acr) => !acrOffered.includes(acr));
    if (acrOffered.length && acrMissing.length)
      warn(
        `acr_values_supported does not list ${acrMissing.join(", ")} (authorizationParameters.acr_values)`,
      );
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
    for (const w of jwksCertificateWarnings(signing, new Date())) warn(w);
    answer.ok = true;
  } catch (err) {
    answer.error = describe(err);
  }
  return answer;
}
