/**
 * The public keys of an `oidc` connection, for its upstream to fetch (issue 24 §3):
 * GET {PUBLIC_URL}/connections/{connectionId}/jwks.json.
 * Rules:
 * - the JWKS holds the public half of `privateKeyJwk` (use "sig": private_key_jwt assertions and
 *   request objects) and of `idTokenDecryptionKey` (use "enc": the upstream encrypts ID tokens to
 *   it); never a private member;
 * - served for any stored oidc connection that has one of these keys, enabled or not (an upstream
 *   registers the client before the operator switches the connection on); 404 otherwise, the same
 *   answer for an unknown connection and for one without keys;
 * - the connection id is the key (not the provider): it is unguessable and does not change when
 *   the settings do; a rotated key is served as soon as the PUT commits.
 */
import type { Db } from "../db/kysely";
import { notFound } from "../errors";
import { publicJwk } from "../providers/adapters/oidc-keys";
import { adapterSettings } from "./schema";
import { unsealSecrets } from "./rows";
import { readConnectionById } from "./store/connections";

/** The connection's JWKS document: `{keys: [...]}`; 404 when there is nothing to serve. */
export async function connectionJwks(
  db: Db,
  connectionId: string,
): Promise<{ keys: Record<string, unknown>[] }> {
  const row = /^con_[A-Za-z0-9_-]{1,100}$/.test(connectionId)
    ? await readConnectionById(db, connectionId)
    : undefined;
  if (!row || row.adapter !== "oidc") throw notFound(`Keys of connection "${connectionId}"`);
  const config = adapterSettings("oidc", row.settings, unsealSecrets(row));
  const keys: Record<string, unknown>[] = [];
  if (config.privateKeyJwk) keys.push(publicJwk(config.privateKeyJwk, "sig"));
  if (config.idTokenDecryptionKey) keys.push(publicJwk(config.idTokenDecryptionKey, "enc"));
  if (keys.length === 0) throw notFound(`Keys of connection "${connectionId}"`);
  return { keys };
}

/** Where a connection's JWKS is served. */
export function connectionJwksUrl(publicUrl: string, connectionId: string): string {
  return `${publicUrl}/connections/${connectionId}/jwks.json`;
}
