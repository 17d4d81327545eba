/**
 * App credentials for the App API: HTTP Basic with clientId:clientSecret.
 * Rules: only the secret's SHA-256 is stored and compared in constant time; a Bearer token on an
 * App API call is 401 "Invalid authorization scheme. Use Basic authentication" (spec, verbatim);
 * a deleted app, a rotated-away secret, or an app of the other environment is 401.
 */
import type { Tx } from "../db/client";
import { digestEquals, sha256Hex } from "../crypto/hash";
import { ENV_TAG, type TEnvironment } from "../environments";
import { ApiError } from "../http/errors";
import { randomToken } from "../ids";
import { parseAuthorization } from "./header";

export interface AppAuth {
  kind: "app";
  clientId: string;
  workspaceId: string;
  environment: TEnvironment;
}

export function generateClientSecret(environment: TEnvironment): { secret: string; hash: string } {
  const secret = `cs_${ENV_TAG[environment]}_${randomToken(43)}`;
  return { secret, hash: sha256Hex(secret) };
}

const BASIC_CHALLENGE = { "WWW-Authenticate": 'Basic realm="app-api", charset="UTF-8"' };

export async function authenticateApp(
  db: Tx,
  authorization: string | null,
  environment: TEnvironment,
): Promise<AppAuth> {
  const parsed = parseAuthorization(authorization);
  if (parsed.scheme === "bearer") {
    throw new ApiError(
      "INVALID_AUTHORIZATION_SCHEME",
      "Invalid authorization scheme. Use Basic authentication",
      {
        headers: BASIC_CHALLENGE,
      },
    );
  }
  if (parsed.scheme === "none") {
    throw new ApiError(
      "INVALID_CLIENT_CREDENTIALS",
      "Missing Authorization header. Use Basic authentication with the app's clientId and clientSecret",
      { headers: BASIC_CHALLENGE },
    );
  }
  if (parsed.scheme !== "basic") {
    throw new ApiError(
      "INVALID_CLIENT_CREDENTIALS",
      "Malformed Authorization header. Use: Basic base64(clientId:clientSecret)",
      {
        headers: BASIC_CHALLENGE,
      },
    );
  }
  const invalid = new ApiError("INVALID_CLIENT_CREDENTIALS", "Invalid client credentials", {
    headers: BASIC_CHALLENGE,
  });
  if (parsed.username.length > 64 || parsed.password.length > 128) throw invalid;
  const app = await db.app.findUnique({
    where: { id: parsed.username },
    select: { id: true, workspaceId: true, environment: true, clientSecretHash: true, deletedAt: true },
  });
  const hash = sha256Hex(parsed.password);
  if (
    !app ||
    app.deletedAt !== null ||
    app.environment !== environment ||
    !app.clientSecretHash ||
    !parsed.password.startsWith(`cs_${ENV_TAG[environment]}_`) ||
    !digestEquals(app.clientSecretHash, hash)
  ) {
    throw invalid;
  }
  return { kind: "app", clientId: app.id, workspaceId: app.workspaceId, environment };
}
