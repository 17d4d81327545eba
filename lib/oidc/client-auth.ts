/**
 * Client authentication at the token endpoints: client_secret_basic (HTTP Basic with the app's
 * clientId:clientSecret, form-urlencoded inside per RFC 6749 §2.3.1) or client_secret_post
 * (client_id and client_secret in the body).
 * Rules:
 * - the secret check is the App API's own (lib/auth/app-credentials.ts: SHA-256, constant time,
 *   deleted apps and apps of the other environment refused), so both surfaces accept exactly
 *   the same credentials;
 * - one method per request (RFC 6749 §2.3): a Basic header together with a client_secret in the
 *   body is 400 invalid_request; a client_id in the body next to Basic must name the same app;
 * - every authentication failure is 401 invalid_client with a Basic challenge; the reason is
 *   never more precise than "invalid client credentials";
 * - failures count per address and client id (lib/rate-limit/credentials.ts); over a limit the
 *   answer is 429 slow_down with Retry-After.
 */
import {
  authenticateApp,
  authenticateAppWith,
  type AppAuth,
  type TAppRowRead,
} from "../auth/app-credentials";
import { parseAuthorization } from "../auth/header";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { OAuthError } from "./errors";

export type TClientAuthMethod = "client_secret_basic" | "client_secret_post";

export interface TClientAuthInput {
  authorization: string | null;
  /** body parameters */
  clientId?: string;
  clientSecret?: string;
  /** the caller's address, for the limits of failed checks (lib/rate-limit/credentials.ts) */
  ip?: string;
}

export interface TAuthenticatedClient extends AppAuth {
  method: TClientAuthMethod;
}

const HOW =
  "Authenticate with HTTP Basic (clientId:clientSecret) or with client_id and client_secret in the body";

function basicHeader(clientId: string, clientSecret: string): string {
  const encoded = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
  return `Basic ${Buffer.from(encoded, "utf8").toString("base64")}`;
}

/** The client's credentials as one Basic header, and the method they came by. */
function presented(input: TClientAuthInput): { method: TClientAuthMethod; header: string } {
  const parsed = parseAuthorization(input.authorization);
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
    return { method: "client_secret_basic", header: input.authorization! };
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
  return { method: "client_secret_post", header: basicHeader(input.clientId, input.clientSecret) };
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

export async function authenticateClient(
  db: Db,
  environment: TEnvironment,
  input: TClientAuthInput,
): Promise<TAuthenticatedClient> {
  const { method, header } = presented(input);
  const app = await asOAuth(() => authenticateApp(db, header, environment, input.ip ?? null));
  return { ...app, method };
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
  read: TAppRowRead<R>,
  id: string,
): Promise<{ client: TAuthenticatedClient; row: R | null }> {
  const { method, header } = presented(input);
  const { auth, row } = await asOAuth(() =>
    authenticateAppWith(db, header, environment, input.ip ?? null, read, id),
  );
  return { client: { ...auth, method }, row };
}
