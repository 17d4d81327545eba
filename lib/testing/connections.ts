/**
 * Connections for tests, made the way an operator makes them: PUT through the Operator API with
 * an operator key (lib/connections).
 */
import type { TOidcUpstreamConfig } from "../providers/adapters/oidc";
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
  body: { adapter: "oidc" | "wallet"; enabled?: boolean; settings: Record<string, unknown> },
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
