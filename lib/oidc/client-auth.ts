/**
 * Client authentication at the token endpoints: client_secret_basic (HTTP Basic with the app's
 * clientId:clientSecret, form-urlencoded inside per RFC 6749 §2.3.1), client_secret_post
 * (client_id and client_secret in the body) and, at the OpenID Provider's /token and /par only,
 * private_key_jwt (client_assertion_type and client_assertion: lib/oidc/client-assertion.ts).
 * Rules:
 * - the secret check is the App API's own (lib/auth/app-credentials.ts: SHA-256, constant time,
 *   deleted apps and apps of the other environment refused), so both surfaces accept exactly
 *   the same credentials; the app's OpenID client settings are read in the same statement, and
 *   the client comes with its policy (lib/oidc/profile.ts clientPolicy);
 * - one method per request (RFC 6749 §2.3): a Basic header together with a client_secret in the
 *   body, or a client assertion together with either, is 400 invalid_request; a client_id in the
 *   body next to Basic must name the same app (400), next to an assertion its sub (401);
 * - at the OpenID Provider (`op` set) the app's registered method is enforced
 *   (clientAuthAccepts): a private_key_jwt client's secret, or a secret client's assertion, is
 *   401 invalid_client, said only once the credential itself was proven (the right secret, a
 *   verified signature) so that nothing tells a stranger how a client authenticates;
 * - the REST /token (no `op`) accepts the secret methods only, whatever the app registered; a
 *   client assertion there is 401 invalid_client saying so;
 * - every authentication failure is 401 invalid_client with a Basic challenge; a secret's reason
 *   is never more precise than "invalid client credentials", an assertion's names what is wrong
 *   with it without telling whether the client exists (lib/oidc/client-assertion.ts);
 * - failures, secrets and assertions alike, count per address and client id
 *   (lib/rate-limit/credentials.ts); over a limit the answer is 429 slow_down with Retry-After;
 * - an assertion costs two statements: the app (with the code at /token) and the claim of its jti
 *   (lib/oidc/store/replay.ts: reuse before exp is invalid_client), plus the fetch of a jwksUri
 *   when it is not cached (lib/oidc/client-keys.ts).
 */
import {
  authenticateClientApp,
  authenticateClientAppWith,
  findClientApp,
  findClientAppWith,
  type AppAuth,
  type TClientApp,
  type TClientRowRead,
} from "../auth/app-credentials";
import { parseAuthorization } from "../auth/header";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { isId } from "../ids";
import { addressBlocked, countCredentialFailure, credentialRateLimited } from "../rate-limit/credentials";
import {
  assertionClientId,
  CLIENT_ASSERTION_TYPE,
  ClientAssertionError,
  NOT_VERIFIED,
  verifyClientAssertion,
} from "./client-assertion";
import { clientKeys } from "./client-keys";
import { OAuthError } from "./errors";
import {
  CLIENT_JWT_ALGS,
  clientAuthAccepts,
  clientPolicy,
  type TClientPolicy,
  type TTokenEndpointAuthMethod,
} from "./profile";
import { claimOnce } from "./store/replay";

export type TClientAuthMethod = TTokenEndpointAuthMethod;

export interface TClientAuthInput {
  authorization: string | null;
  /** body parameters */
  clientId?: string;
  clientSecret?: string;
  clientAssertionType?: string;
  clientAssertion?: string;
  /** the caller's address, for the limits of failed checks (lib/rate-limit/credentials.ts) */
  ip?: string;
  /** set at the OpenID Provider's endpoints (/token, /par): the app's registered method is
   *  enforced (lib/oidc/profile.ts clientAuthAccepts) and private_key_jwt is accepted */
  op?: { issuer: string; endpointUrl: string };
}

export interface TAuthenticatedClient extends AppAuth {
  method: TTokenEndpointAuthMethod;
  policy: TClientPolicy;
}

/** What an assertion naming no client is checked against (its signature fails first anyway). */
const NO_CLIENT_POLICY = { clientJwtAlgs: CLIENT_JWT_ALGS, assertionAudience: "issuer_or_endpoint" } as const;

const HOW =
  "Authenticate with HTTP Basic (clientId:clientSecret) or with client_id and client_secret in the body";

type TPresented =
  | { kind: "secret"; method: "client_secret_basic" | "client_secret_post"; header: string }
  | { kind: "assertion"; assertion: string; op: NonNullable<TClientAuthInput["op"]> };

function basicHeader(clientId: string, clientSecret: string): string {
  const encoded = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
  return `Basic ${Buffer.from(encoded, "utf8").toString("base64")}`;
}

/** A client assertion's parameters, checked for form (the assertion itself is checked later). */
function presentedAssertion(input: TClientAuthInput, basic: boolean): TPresented {
  if (basic || input.clientSecret !== undefined) {
    throw new OAuthError(
      "invalid_request",
      "Use one client authentication method: client_assertion (private_key_jwt) or the client secret, not both",
    );
  }
  if (input.clientAssertion === undefined)
    throw new OAuthError("invalid_request", "client_assertion: is required with client_assertion_type");
  if (input.clientAssertionType === undefined)
    throw new OAuthError("invalid_request", "client_assertion_type: is required with client_assertion");
  if (input.clientAssertionType !== CLIENT_ASSERTION_TYPE) {
    throw new OAuthError("invalid_client", `client_assertion_type: must be ${CLIENT_ASSERTION_TYPE}`, 401);
  }
  if (!input.op) {
    throw new OAuthError(
      "invalid_client",
      `client_assertion: private_key_jwt is accepted at the OpenID Provider's /token and /par only. ${HOW}`,
      401,
    );
  }
  return { kind: "assertion", assertion: input.clientAssertion, op: input.op };
}

/** The client's credentials: one Basic header and the method they came by, or an assertion. */
function presented(input: TClientAuthInput): TPresented {
  const parsed = parseAuthorization(input.authorization);
  if (input.clientAssertion !== undefined || input.clientAssertionType !== undefined)
    return presentedAssertion(input, parsed.scheme !== "none");
  if (parsed.scheme !== "none") {
    if (input.clientSecret !== undefined) {
      throw new OAuthError(
        "invalid_request",
        "Use one client authentication method: the Authorization header or client_id/client_secret in the body, not both",
      );
    }
    if (parsed.scheme !== "basic")
      throw new OAuthError("invalid_client", `Unsupported Authorization header. ${HOW}`, 401);
    if (input.clientId !== undefined && input.clientId !== parsed.username) {
      throw new OAuthError(
        "invalid_request",
        "client_id: does not match the client of the Authorization header",
      );
    }
    return { kind: "secret", method: "client_secret_basic", header: input.authorization! };
  }
  if (input.clientId === undefined)
    throw new OAuthError("invalid_client", `Client authentication is required. ${HOW}`, 401);
  if (input.clientSecret === undefined) {
    throw new OAuthError(
      "invalid_client",
      "client_secret: is required with client_id (client_secret_post)",
      401,
    );
  }
  return {
    kind: "secret",
    method: "client_secret_post",
    header: basicHeader(input.clientId, input.clientSecret),
  };
}

/** The App API's refusals as the token endpoints answer them. */
async function asOAuth<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof ApiError && err.code === "RATE_LIMITED")
      throw new OAuthError("slow_down", err.message, 429, err.headers);
    if (err instanceof ApiError && err.status === 401)
      throw new OAuthError("invalid_client", "Invalid client credentials", 401);
    throw err;
  }
}

/**
 * A client assertion's check under the limits of failed credential checks, counted as the App
 * API counts a failed secret (lib/rate-limit/credentials.ts limitCredentialCheck): refused from
 * memory while the address is blocked, each 401 counted per address and client id.
 */
async function limitedAssertionCheck<T>(
  ip: string | undefined,
  clientId: string | undefined,
  check: () => Promise<T>,
): Promise<T> {
  if (ip === undefined) return check();
  const blocked = addressBlocked(ip);
  if (blocked > 0) throw credentialRateLimited(blocked);
  try {
    return await check();
  } catch (err) {
    if (err instanceof OAuthError && err.status === 401) {
      const wait = await countCredentialFailure(ip, clientId);
      if (wait > 0) throw credentialRateLimited(wait);
    }
    throw err;
  }
}

/** A secret client at the OP: refused when its app registered private_key_jwt. */
function withSecretMethod(
  app: TClientApp,
  method: "client_secret_basic" | "client_secret_post",
  op: TClientAuthInput["op"],
): TAuthenticatedClient {
  const { settings, ...auth } = app;
  const policy = clientPolicy(settings);
  if (op && !clientAuthAccepts(policy.authMethod, method)) {
    throw new OAuthError(
      "invalid_client",
      `This client authenticates with ${policy.authMethod}: send client_assertion_type and client_assertion instead of the client secret`,
      401,
    );
  }
  return { ...auth, method, policy };
}

/** The client an assertion names, its signature and claims verified and its jti claimed. */
async function assertedClient<R>(
  db: Db,
  input: TClientAuthInput,
  presentedAssertion: Extract<TPresented, { kind: "assertion" }>,
  find: (clientId: string) => Promise<{ app: TClientApp | null; row: R | null }>,
): Promise<{ client: TAuthenticatedClient; row: R | null }> {
  const { assertion, op } = presentedAssertion;
  let named: string | undefined;
  try {
    named = assertionClientId(assertion);
  } catch {
    // counted below, without a client id
  }
  const countedId = named !== undefined && isId("app", named) ? named : undefined;
  const verified = await asOAuth(() =>
    limitedAssertionCheck(input.ip, countedId, async () => {
      try {
        const clientId = named ?? assertionClientId(assertion);
        if (input.clientId !== undefined && input.clientId !== clientId)
          throw new ClientAssertionError("client_id: does not match the sub of client_assertion");
        const found = await find(clientId);
        // no such client: no keys, so the signature check refuses it like a wrong key
        const policy = found.app ? clientPolicy(found.app.settings) : undefined;
        const { jti, expiresAt } = await verifyClientAssertion(assertion, {
          clientId,
          keys: found.app ? clientKeys({ id: clientId, ...found.app.settings }) : undefined,
          policy: policy ?? NO_CLIENT_POLICY,
          issuer: op.issuer,
          endpoints: [...new Set([op.endpointUrl, `${op.issuer}/token`, `${op.issuer}/par`])],
        });
        if (!found.app || !policy) throw new ClientAssertionError(NOT_VERIFIED);
        if (!(await claimOnce(db, `client_assertion:${clientId}`, jti, expiresAt)))
          throw new ClientAssertionError("client_assertion: its jti has been used already");
        return { app: found.app, policy, row: found.row };
      } catch (err) {
        if (err instanceof ClientAssertionError) throw new OAuthError("invalid_client", err.message, 401);
        throw err;
      }
    }),
  );
  const { app, policy, row } = verified;
  if (!clientAuthAccepts(policy.authMethod, "private_key_jwt")) {
    throw new OAuthError(
      "invalid_client",
      `This client authenticates with ${policy.authMethod} (its registered method), not private_key_jwt`,
      401,
    );
  }
  const { settings: _settings, ...auth } = app;
  return { client: { ...auth, method: "private_key_jwt", policy }, row };
}

export async function authenticateClient(
  db: Db,
  environment: TEnvironment,
  input: TClientAuthInput,
): Promise<TAuthenticatedClient> {
  const credential = presented(input);
  if (credential.kind === "assertion") {
    const { client } = await assertedClient(db, input, credential, async (clientId) => ({
      app: await findClientApp(db, clientId, environment),
      row: null,
    }));
    return client;
  }
  const app = await asOAuth(() =>
    authenticateClientApp(db, credential.header, environment, input.ip ?? null),
  );
  return withSecretMethod(app, credential.method, input.op);
}

/**
 * authenticateClient reading `read`'s row `id` in the credential's statement (the token
 * endpoints' code): the client and the row (null when none), or exactly authenticateClient's
 * refusals.
 */
export async function authenticateClientWith<R>(
  db: Db,
  environment: TEnvironment,
  input: TClientAuthInput,
  read: TClientRowRead<R>,
  id: string,
): Promise<{ client: TAuthenticatedClient; row: R | null }> {
  const credential = presented(input);
  if (credential.kind === "assertion") {
    return assertedClient(db, input, credential, (clientId) =>
      findClientAppWith(db, clientId, environment, read, id),
    );
  }
  const { auth, row } = await asOAuth(() =>
    authenticateClientAppWith(db, credential.header, environment, input.ip ?? null, read, id),
  );
  return { client: withSecretMethod(auth, credential.method, input.op), row };
}
