/**
 * The issuer an OpenID Provider request speaks as (docs/design.md §2).
 * Rules:
 * - `{PUBLIC_URL}/oidc/{env}` on the service's own hosts;
 * - `https://{oidcDomain}` when the request's Host is the oidcDomain of an ACTIVE custom domain of
 *   an app of this environment (the proxy rewrites that host onto /oidc/{env}); when a client is
 *   known, only that client's own custom domain counts — another app's domain never lends its
 *   name to this client's tokens;
 * - cachedIssuer is the same answer outside a transaction (discovery asks it on every request):
 *   the lookup is cached per process and dropped on every committed change of custom domains on
 *   any instance (CACHE_TOPICS.customDomains, sent by lib/domains and lib/apps in the
 *   transaction of the change; lib/cache).
 */
import { DerivedCache } from "../../cache/derived-cache";
import { CACHE_TOPICS } from "../../cache/topics";
import { kysely } from "../../db/client";
import type { Db } from "../../db/kysely";
import { mayBeCustomDomain } from "../../domains/routing";
import type { TEnvironment } from "../../environments";
import { normalizeHost } from "../../http/hosts";
import { issuerFor } from "../settings";
import { readActiveOidcDomain } from "../store/provider";

/** Pure: the issuer for a Host header, given the active custom OIDC domain it was matched to. */
export function issuerForHost(
  environment: TEnvironment,
  host: string | null | undefined,
  activeOidcDomain: string | undefined,
): string {
  const name = normalizeHost(host);
  if (name && activeOidcDomain && name === activeOidcDomain) return `https://${activeOidcDomain}`;
  return issuerFor(environment);
}

export async function findActiveOidcDomain(
  db: Db,
  environment: TEnvironment,
  host: string | null | undefined,
  clientId?: string,
): Promise<string | undefined> {
  const name = mayBeCustomDomain(host);
  if (!name) return undefined;
  return readActiveOidcDomain(db, environment, name, clientId);
}

/** The issuer `request` speaks as (see the rules), read on `db`. */
export async function requestIssuer(
  db: Db,
  environment: TEnvironment,
  request: Request,
  clientId?: string,
): Promise<string> {
  const host = request.headers.get("host");
  return issuerForHost(environment, host, await findActiveOidcDomain(db, environment, host, clientId));
}

/** Found or not, per environment, host and client; bounded like the proxy's routing cache. */
let oidcDomains: DerivedCache<string | null> | undefined;
const OIDC_DOMAIN_CACHE_TTL_MS = 60_000;
const OIDC_DOMAIN_CACHE_MAX_ENTRIES = 10_000;

/** requestIssuer outside a transaction, behind the cache (see the rules). */
export async function cachedIssuer(
  environment: TEnvironment,
  request: Request,
  clientId?: string,
): Promise<string> {
  const host = request.headers.get("host");
  const name = mayBeCustomDomain(host);
  // the service's own hosts: no lookup at all
  if (!name) return issuerFor(environment);
  oidcDomains ??= new DerivedCache<string | null>({
    topic: CACHE_TOPICS.customDomains,
    ttlMs: OIDC_DOMAIN_CACHE_TTL_MS,
    maxEntries: OIDC_DOMAIN_CACHE_MAX_ENTRIES,
  });
  const domain = await oidcDomains.get(`${environment} ${name} ${clientId ?? ""}`, async () => ({
    value: (await findActiveOidcDomain(kysely(), environment, name, clientId)) ?? null,
  }));
  return issuerForHost(environment, name, domain ?? undefined);
}
