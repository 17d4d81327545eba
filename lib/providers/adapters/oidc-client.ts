/**
 * The openid-client side of the OIDC upstream adapter (lib/providers/adapters/oidc.ts): the
 * issuer's discovery document, and a client configured for it from a connection's settings.
 * Rules:
 * - every request to the upstream (discovery, JWKS, PAR, token, userinfo) goes through the SSRF
 *   guard (lib/http/guarded-fetch.ts): private addresses only where private networks are allowed;
 * - discovery documents (and the issuer's JWKS) are cached per issuer for an hour; a failed
 *   discovery is not cached;
 * - client authentication: the configured method; unset, private_key_jwt when only a private key
 *   is configured, else client_secret_basic (post when the upstream offers post but not basic);
 * - `idTokenDecryptionKey` decrypts encrypted ID tokens (and userinfo JWTs); the ID token's
 *   signature is always verified against the issuer's JWKS (it is the evidence we keep).
 */
import * as client from "openid-client";
import { guardedFetch } from "../../http/guarded-fetch";
import { decryptionKeysOf, importPrivateKey, signingAlgOf } from "./oidc-keys";
import type { CLIENT_AUTH_METHODS, TOidcUpstreamConfig } from "./oidc-settings";

const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const HTTP_TIMEOUT_SECONDS = 10;

export interface TDiscoveryEntry {
  metadata: Promise<client.ServerMetadata>;
  fetchedAt: number;
  jwks?: client.ExportedJWKSCache;
}

const discoveries = new Map<string, TDiscoveryEntry>();

/** Forgets cached discovery documents (tests; an operator changing an issuer's keys). */
export function clearOidcDiscoveryCache(): void {
  discoveries.clear();
}

function discover(config: TOidcUpstreamConfig): TDiscoveryEntry {
  const key = `${config.allowInsecureRequests ? "insecure" : "tls"} ${config.issuer}`;
  const cached = discoveries.get(key);
  if (cached && Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached;
  const entry: TDiscoveryEntry = {
    fetchedAt: Date.now(),
    metadata: client
      .discovery(new URL(config.issuer), config.clientId, undefined, undefined, {
        timeout: HTTP_TIMEOUT_SECONDS,
        execute: config.allowInsecureRequests ? [client.allowInsecureRequests] : [],
        [client.customFetch]: upstreamFetch,
      })
      .then((c) => c.serverMetadata()),
  };
  entry.metadata.catch(() => {
    if (discoveries.get(key) === entry) discoveries.delete(key);
  });
  discoveries.set(key, entry);
  return entry;
}

/** Every request to an upstream goes through the SSRF guard (openid-client's customFetch). */
const upstreamFetch: client.CustomFetch = (url, options) =>
  guardedFetch(url, { ...options, timeoutMs: HTTP_TIMEOUT_SECONDS * 1000 } as RequestInit);

/** The client authentication method a configuration uses with the upstream's metadata. */
export function clientAuthMethodOf(
  config: TOidcUpstreamConfig,
  metadata: Pick<client.ServerMetadata, "token_endpoint_auth_methods_supported">,
): (typeof CLIENT_AUTH_METHODS)[number] {
  if (config.clientAuthMethod) return config.clientAuthMethod;
  if (config.privateKeyJwk && !config.clientSecret) return "private_key_jwt";
  const methods = metadata.token_endpoint_auth_methods_supported;
  // client_secret_basic is the OIDC default; use post only where the upstream offers nothing else
  return methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
    ? "client_secret_post"
    : "client_secret_basic";
}

async function clientAuth(
  config: TOidcUpstreamConfig,
  metadata: client.ServerMetadata,
): Promise<client.ClientAuth> {
  const method = clientAuthMethodOf(config, metadata);
  if (method === "private_key_jwt") {
    const jwk = config.privateKeyJwk!;
    return client.PrivateKeyJwt({ key: await importPrivateKey(jwk, signingAlgOf(jwk)), kid: jwk.kid });
  }
  return method === "client_secret_post"
    ? client.ClientSecretPost(config.clientSecret!)
    : client.ClientSecretBasic(config.clientSecret!);
}

export async function configure(
  config: TOidcUpstreamConfig,
): Promise<{ cfg: client.Configuration; entry: TDiscoveryEntry }> {
  const entry = discover(config);
  const metadata = await entry.metadata;
  const cfg = new client.Configuration(
    metadata,
    config.clientId,
    undefined,
    await clientAuth(config, metadata),
  );
  cfg.timeout = HTTP_TIMEOUT_SECONDS;
  cfg[client.customFetch] = upstreamFetch;
  if (config.allowInsecureRequests) client.allowInsecureRequests(cfg);
  if (config.idTokenDecryptionKey)
    client.enableDecryptingResponses(
      cfg,
      undefined,
      ...(await decryptionKeysOf(config.idTokenDecryptionKey)),
    );
  // verify the ID token's signature too, not only TLS: it is the evidence we keep
  client.enableNonRepudiationChecks(cfg);
  if (entry.jwks) client.setJwksCache(cfg, entry.jwks);
  return { cfg, entry };
}
