/**
 * Connections for tests, made the way an operator makes them: PUT through the Operator API with
 * an operator key (lib/connections).
 */
import { kysely } from "../db/client";
import type { TOidcUpstreamConfig } from "../providers/adapters/oidc-settings";
import type { TUpstreamOp } from "./upstream-oidc";
import { makeOperator } from "./factories";
import { bearer, call, type CallResult } from "./router";

let operatorKey: Promise<string> | undefined;

/** The operator key of this test file's operator (made once). */
export function testOperatorKey(): Promise<string> {
  return (operatorKey ??= makeOperator().then((o) => o.operatorKey));
}

/** PUT /v1/operator/connections/{providerId} in `env`; throws unless it answers 200 or 201. */
export async function putTestConnection(
  env: "sandbox" | "production",
  providerId: string,
  body: { adapter: "oidc" | "saml" | "wallet"; enabled?: boolean; settings: Record<string, unknown> },
): Promise<CallResult> {
  const res = await call("PUT", `/api/${env}/v1/operator/connections/${providerId}`, {
    headers: bearer(await testOperatorKey()),
    body: { enabled: true, ...body },
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`PUT connection: ${res.status} ${res.text}`);
  return res;
}

/** The oidc settings of a connection to the test OpenID Provider `op`. */
export function opSettings(
  op: TUpstreamOp,
  extra: Partial<TOidcUpstreamConfig> = {},
): Record<string, unknown> {
  return {
    issuer: op.issuer,
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    scopes: ["openid", "profile"],
    allowInsecureRequests: true,
    ...extra,
  };
}

/**
 * Oidc settings of an upstream nothing answers (loopback port 9 refuses at once): enough for
 * production sessions to be created, for tests about something other than the upstream.
 */
export const UNREACHABLE_OIDC_SETTINGS = {
  issuer: "http://127.0.0.1:9/unreachable-upstream",
  clientId: "test-broker",
  clientSecret: "test-broker-secret",
  allowInsecureRequests: true,
} as const;

/**
 * Connects each provider in production, as an operator would (PUT, oidc to an unreachable
 * upstream), unless it has a production connection already: production sessions of these
 * providers can then be created (issue 24: a provider without a connection is refused).
 */
export async function connectTestProviders(providerIds: readonly string[]): Promise<void> {
  const existing =
    providerIds.length === 0
      ? []
      : await kysely()
          .selectFrom("providerConnections")
          .select("providerId")
          .where("environment", "=", "production")
          .where("providerId", "in", [...providerIds])
          .execute();
  const connected = new Set(existing.map((c) => c.providerId));
  for (const providerId of providerIds) {
    if (connected.has(providerId)) continue;
    await putTestConnection("production", providerId, {
      adapter: "oidc",
      settings: UNREACHABLE_OIDC_SETTINGS,
    });
  }
}
