/**
 * "Check connection" (issue 24): the stored connection checked by its adapter module's check()
 * (./adapters: oidc fetches discovery and JWKS, saml its IdP metadata), the outcome recorded.
 * Rules:
 * - every request goes through the SSRF guard (lib/http/guarded-fetch.ts), GET only, redirects
 *   not followed, a time limit and a size limit per answer;
 * - nothing personal is fetched or stored: only the outcome goes to the connection's state
 *   fields (last success, or last error and when), in the caller's transaction;
 * - a failure is an answer (`ok: false`, `error`), never an exception; an adapter without a
 *   check (wallet) is 400 naming `adapter`.
 */
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { ApiError, notFound } from "../errors";
import { findProvider } from "../providers/catalog";
import { adapterModuleOf, CONNECTION_ADAPTER_MODULES, CONNECTION_ADAPTERS } from "./adapters/registry";
import { adapterSettings, type TConnectionCheckJson } from "./schema";
import { parseConnectionAdapter, recordConnectionOutcome, unsealSecrets } from "./service";
import { readConnection } from "./store/connections";

export { checkOidcIssuer, guardedGetJson } from "./adapters/oidc-check";

/** POST …/connections/{providerId}/check: the stored connection checked, its outcome recorded. */
export async function checkConnection(
  db: Db,
  env: TEnvironment,
  providerId: string,
): Promise<TConnectionCheckJson> {
  if (!findProvider(providerId)) throw notFound(`Provider "${providerId}"`);
  const row = await readConnection(db, env, providerId);
  if (!row) throw notFound(`Connection of provider "${providerId}"`);
  const adapter = adapterModuleOf(row.adapter);
  if (!adapter?.check) {
    const checkable = CONNECTION_ADAPTERS.filter((id) => CONNECTION_ADAPTER_MODULES[id].check).join(" and ");
    throw new ApiError(
      "VALIDATION_ERROR",
      `Only ${checkable} connections can be checked (this one is ${row.adapter})`,
      {
        details: [{ path: "adapter", message: `only ${checkable} connections can be checked` }],
      },
    );
  }
  const answer = await adapter.check(
    providerId,
    adapterSettings(parseConnectionAdapter(row.adapter), row.settings, unsealSecrets(row)),
  );
  await recordConnectionOutcome(db, env, providerId, answer.ok ? null : answer.error);
  return answer;
}
