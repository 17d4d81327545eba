/**
 * The issuer an OpenID Provider request speaks as (DESIGN.md §2).
 * Rules:
 * - `{PUBLIC_URL}/oidc/{env}` on the service's own hosts;
 * - `https://{oidcDomain}` when the request's Host is the oidcDomain of an ACTIVE custom domain of
 *   an app of this environment (the proxy rewrites that host onto /oidc/{env}); when a client is
 *   known, only that client's own custom domain counts — another app's domain never lends its
 *   name to this client's tokens.
 */
import type { Tx } from "../../db/client";
import { mayBeCustomDomain } from "../../domains/routing";
import type { TEnvironment } from "../../environments";
import { normalizeHost } from "../../http/hosts";
import { issuerFor } from "../settings";

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
  db: Tx,
  environment: TEnvironment,
  host: string | null | undefined,
  clientId?: string,
): Promise<string | undefined> {
  const name = mayBeCustomDomain(host);
  if (!name) return undefined;
  const domain = await db.customDomain.findFirst({
    where: {
      oidcDomain: name,
      status: "active",
      app: { environment, deletedAt: null, ...(clientId ? { id: clientId } : {}) },
    },
    select: { oidcDomain: true },
  });
  return domain?.oidcDomain;
}

export async function resolveIssuer(
  db: Tx,
  environment: TEnvironment,
  request: Request,
  clientId?: string,
): Promise<string> {
  const host = request.headers.get("host");
  return issuerForHost(environment, host, await findActiveOidcDomain(db, environment, host, clientId));
}
