/**
 * App credentials for the App API: HTTP Basic with clientId:clientSecret.
 * Rules: only the secret's SHA-256 is stored and compared in constant time; a Bearer token on an
 * App API call is 401 "Invalid authorization scheme. Use Basic authentication" (spec, verbatim);
 * a deleted app, a rotated-away secret, or an app of the other environment is 401; failed
 * checks count per address and per client id (lib/rate-limit/credentials.ts: 429 over a limit).
 */
import type { Tx } from "../db/client";
import { column, defineStatement, queryOne } from "../db/sql";
import { digestEquals, sha256Hex } from "../crypto/hash";
import { ENV_TAG, parseEnvironment, type TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { isId, randomToken } from "../ids";
import { limitCredentialCheck } from "../rate-limit/credentials";
import { parseAuthorization, type ParsedAuthorization } from "./header";

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

/** The app's credential, by client id: one prepared statement on every App API request. */
const APP_CREDENTIAL = defineStatement<[clientId: string], TAppCredential>({
  name: "auth_app_credential",
  text: `SELECT id, workspace_id, environment, client_secret_hash, deleted_at IS NOT NULL AS deleted
           FROM apps WHERE id = $1`,
  parse: (row) => ({
    id: column.text(row, "id"),
    workspaceId: column.text(row, "workspace_id"),
    environment: parseEnvironment(column.text(row, "environment")),
    clientSecretHash: column.textOrNull(row, "client_secret_hash"),
    deleted: column.boolean(row, "deleted"),
  }),
});

interface TAppCredential {
  id: string;
  workspaceId: string;
  /** undefined: a value this version does not know (never matches) */
  environment: TEnvironment | undefined;
  clientSecretHash: string | null;
  deleted: boolean;
}

/**
 * `ip`: the caller's address, for the limits of failed checks (lib/rate-limit/credentials.ts);
 * null outside a request (no limits).
 */
export async function authenticateApp(
  db: Tx,
  authorization: string | null,
  environment: TEnvironment,
  ip: string | null = null,
): Promise<AppAuth> {
  const parsed = parseAuthorization(authorization);
  const clientId = parsed.scheme === "basic" && isId("app", parsed.username) ? parsed.username : undefined;
  return limitCredentialCheck(
    ip,
    parsed.scheme !== "none",
    () => checkAppCredentials(db, parsed, environment),
    clientId,
  );
}

async function checkAppCredentials(
  db: Tx,
  parsed: ParsedAuthorization,
  environment: TEnvironment,
): Promise<AppAuth> {
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
  // made only when refused: an Error's stack trace costs more than the rest of a successful check
  const invalid = () =>
    new ApiError("INVALID_CLIENT_CREDENTIALS", "Invalid client credentials", {
      headers: BASIC_CHALLENGE,
    });
  // a username that is not an app id cannot name one: refused before any query (a NUL would
  // make PostgreSQL fail the lookup)
  if (!isId("app", parsed.username) || parsed.password.length > 128) throw invalid();
  const app = await queryOne(db, APP_CREDENTIAL, [parsed.username]);
  const hash = sha256Hex(parsed.password);
  if (
    !app ||
    app.deleted ||
    app.environment !== environment ||
    !app.clientSecretHash ||
    !parsed.password.startsWith(`cs_${ENV_TAG[environment]}_`) ||
    !digestEquals(app.clientSecretHash, hash)
  ) {
    throw invalid();
  }
  return { kind: "app", clientId: app.id, workspaceId: app.workspaceId, environment };
}
