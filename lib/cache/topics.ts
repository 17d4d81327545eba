/**
 * The invalidation topics of the derived caches, one per kind of source rows, in one list so that
 * two caches never share a name by accident. A writer of those rows publishes the topic in its
 * transaction (publish.ts); the caches of that topic drop what it may have changed.
 */
export const CACHE_TOPICS = {
  /** signing_keys of an environment (key: the environment): the published JWKS */
  signingKeys: "signing_keys",
  /**
   * custom_domains entering or leaving `active`, or their app deleted (no key: any host): the
   * OpenID Provider's issuer on a custom domain
   */
  customDomains: "custom_domains",
  /** provider_connections (key: "<environment> <providerId>"): the adapters' runtime settings */
  connections: "provider_connections",
} as const;

export type TCacheTopic = (typeof CACHE_TOPICS)[keyof typeof CACHE_TOPICS];
