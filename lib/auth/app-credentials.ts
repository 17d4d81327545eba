/**
 * App credentials for the App API: HTTP Basic with clientId:clientSecret.
 * Rules: only the secret's SHA-256 is stored and compared in constant time; a Bearer token on an
 * App API call is 401 "Invalid authorization scheme. Use Basic authentication" (spec, verbatim);
 * a deleted app, a rotated-away secret, or an app of the other environment is 401; failed
 * checks count per address and per client id (lib/rate-limit/credentials.ts: 429 over a limit).
 * A polled App API read may fetch its row in the credential's own statement (`defineAppRowRead`,
 * `authenticateAppWith`, withApi's `authWith`): one database round trip instead of two, with the
 * same checks (one function, `checkAppCredential`) in the same order.
 */
import type { Tx } from "../db/client";
import { column, defineStatement, queryOne, type TRow, type TStatement } from "../db/sql";
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

/** An app's credential row. */
export interface TAppCredential {
  id: string;
  workspaceId: string;
  /** undefined: a value this version does not know (never matches) */
  environment: TEnvironment | undefined;
  clientSecretHash: string | null;
  deleted: boolean;
}

// named auth_… so that a row read beside them (defineAppRowRead) keeps its own column names
const CREDENTIAL_COLUMNS = `a.id AS auth_id, a.workspace_id AS auth_workspace_id,
       a.environment AS auth_environment, a.client_secret_hash AS auth_client_secret_hash,
       a.deleted_at IS NOT NULL AS auth_deleted`;

function parseCredential(row: TRow): TAppCredential {
  return {
    id: column.text(row, "auth_id"),
    workspaceId: column.text(row, "auth_workspace_id"),
    environment: parseEnvironment(column.text(row, "auth_environment")),
    clientSecretHash: column.textOrNull(row, "auth_client_secret_hash"),
    deleted: column.boolean(row, "auth_deleted"),
  };
}

/** The app's credential, by client id: one prepared statement on every App API request. */
const APP_CREDENTIAL = defineStatement<[clientId: string], TAppCredential>({
  name: "auth_app_credential",
  text: `SELECT ${CREDENTIAL_COLUMNS} FROM apps a WHERE a.id = $1`,
  parse: parseCredential,
});

/**
 * A row an App API endpoint reads in the same statement as the app's credential (withApi's
 * `authWith`), named by the path parameter `param`. The handler receives it only once the
 * credential passed every check, and null when the statement found none.
 */
export interface TAppRowRead<R, N extends string = string> {
  readonly param: N;
  readonly statement: TStatement<
    [clientId: string, id: string],
    { credential: TAppCredential; row: R | null }
  >;
}

/**
 * Defines a row read with the credential. `text` is a SELECT of at most one row by its primary
 * key `$2`, the path parameter (already checked by format: lib/http/validation.ts; `$1` is the
 * client id presented); it lists its columns and names none of them `auth_…`. It is LEFT JOINed
 * to the credential's row: without a row of its own the credential is still read and checked,
 * so its 401 comes before any 404. `parse` reads the row's columns; the handler checks that the
 * row is the app's, as it would after a read of its own (a condition on `$1` in `text` would let
 * the planner pick the owner's index and scan all of a large app's rows for one key).
 */
export function defineAppRowRead<R, const N extends string>(read: {
  name: string;
  param: N;
  text: string;
  parse: (row: TRow) => R;
}): TAppRowRead<R, N> {
  return {
    param: read.param,
    statement: defineStatement({
      name: read.name,
      text: `SELECT ${CREDENTIAL_COLUMNS}, r.*
               FROM apps a
               LEFT JOIN (SELECT TRUE AS auth_row_found, q.* FROM (${read.text}) q) r ON TRUE
              WHERE a.id = $1`,
      parse: (row) => ({
        credential: parseCredential(row),
        row: row.auth_row_found === true ? read.parse(row) : null,
      }),
    }),
  };
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
  return limitedCheck(authorization, ip, async (basic) =>
    checkAppCredential(await queryOne(db, APP_CREDENTIAL, [basic.username]), basic, environment),
  );
}

/**
 * authenticateApp reading `read`'s row named `id` in the same statement: the app and its row
 * (null when none), or exactly authenticateApp's refusals (the row is then dropped unread).
 * `id` must have passed the path parameter check.
 */
export async function authenticateAppWith<R>(
  db: Tx,
  authorization: string | null,
  environment: TEnvironment,
  ip: string | null,
  read: TAppRowRead<R>,
  id: string,
): Promise<{ auth: AppAuth; row: R | null }> {
  return limitedCheck(authorization, ip, async (basic) => {
    const found = await queryOne(db, read.statement, [basic.username, id]);
    const auth = checkAppCredential(found?.credential ?? null, basic, environment);
    return { auth, row: found?.row ?? null };
  });
}

type TBasic = Extract<ParsedAuthorization, { scheme: "basic" }>;

/** The header's refusals, then `check` of Basic credentials, under the limits of failed checks. */
function limitedCheck<T>(
  authorization: string | null,
  ip: string | null,
  check: (basic: TBasic) => Promise<T>,
): Promise<T> {
  const parsed = parseAuthorization(authorization);
  const clientId = parsed.scheme === "basic" && isId("app", parsed.username) ? parsed.username : undefined;
  return limitCredentialCheck(
    ip,
    parsed.scheme !== "none",
    async () => check(basicCredentials(parsed)),
    clientId,
  );
}

// made only when refused: an Error's stack trace costs more than the rest of a successful check
const invalid = () =>
  new ApiError("INVALID_CLIENT_CREDENTIALS", "Invalid client credentials", {
    headers: BASIC_CHALLENGE,
  });

/** The refusals that need no lookup: the scheme, the header's form, the client id's, the length. */
function basicCredentials(parsed: ParsedAuthorization): TBasic {
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
  // a username that is not an app id cannot name one: refused before any query (a NUL would
  // make PostgreSQL fail the lookup)
  if (!isId("app", parsed.username) || parsed.password.length > 128) throw invalid();
  return parsed;
}

/**
 * The checks of a credential row already read for `basic.username` (null: no such app): the app
 * exists, is not deleted, belongs to `environment` and has this secret (SHA-256, constant time).
 */
function checkAppCredential(app: TAppCredential | null, basic: TBasic, environment: TEnvironment): AppAuth {
  const hash = sha256Hex(basic.password);
  if (
    !app ||
    app.deleted ||
    app.environment !== environment ||
    !app.clientSecretHash ||
    !basic.password.startsWith(`cs_${ENV_TAG[environment]}_`) ||
    !digestEquals(app.clientSecretHash, hash)
  ) {
    throw invalid();
  }
  return { kind: "app", clientId: app.id, workspaceId: app.workspaceId, environment };
}
