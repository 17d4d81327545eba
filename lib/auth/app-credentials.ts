/**
 * App credentials for the App API: HTTP Basic with clientId:clientSecret.
 * Rules: only the secret's SHA-256 is stored and compared in constant time; a Bearer token on an
 * App API call is 401 "Invalid authorization scheme. Use Basic authentication" (spec, verbatim);
 * a deleted app, a rotated-away secret, or an app of the other environment is 401; failed
 * checks count per address and per client id (lib/rate-limit/credentials.ts: 429 over a limit).
 * A polled App API read may fetch its row in the credential's own statement (`defineAppRowRead`,
 * `authenticateAppWith`, withApi's `authWith`): one database round trip instead of two, with the
 * same checks (one function, `checkAppCredential`) in the same order.
 * The OpenID Provider's endpoints (lib/oidc/client-auth.ts) read the app's OpenID client settings
 * with the credential (`authenticateClientApp*`, and `findClientApp*` for a client assertion,
 * whose key check is the OP's own): the same statement, the settings columns added.
 */
import type { AliasableExpression } from "kysely";
import type { Db } from "../db/kysely";
import { digestEquals, sha256Hex } from "../crypto/hash";
import { ENV_TAG, type TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { isId, randomToken } from "../ids";
import { limitCredentialCheck } from "../rate-limit/credentials";
import { parseAuthorization, type ParsedAuthorization } from "./header";
import {
  clientCredentialWithRow,
  credentialWithRow,
  readAppCredential,
  readClientCredential,
  type TAppCredential,
  type TClientCredential,
  type TJsonRow,
  type TJsonSafe,
} from "./store/credentials";

export interface AppAuth {
  kind: "app";
  clientId: string;
  workspaceId: string;
  environment: TEnvironment;
}

/** An authenticated app with its OpenID client settings (the OP's endpoints). */
export interface TClientApp extends AppAuth {
  settings: Omit<TClientCredential, keyof TAppCredential>;
}

export function generateClientSecret(environment: TEnvironment): { secret: string; hash: string } {
  const secret = `cs_${ENV_TAG[environment]}_${randomToken(43)}`;
  return { secret, hash: sha256Hex(secret) };
}

const BASIC_CHALLENGE = { "WWW-Authenticate": 'Basic realm="app-api", charset="UTF-8"' };

/**
 * A row an App API endpoint reads in the same statement as the app's credential (withApi's
 * `authWith`), named by the path parameter `param`. The handler receives it only once the
 * credential passed every check, and null when the statement found none.
 */
export interface TAppRowRead<R, N extends string = string> {
  readonly param: N;
  /** the credential of `clientId` (null: no such app) and the row `id` (null: none), in one statement */
  readonly read: (
    db: Db,
    clientId: string,
    id: string,
  ) => Promise<{ credential: TAppCredential | null; row: R | null }>;
}

/**
 * A row read with the credential and the app's OpenID client settings (defineClientRowRead: the
 * token endpoints' code); usable wherever a TAppRowRead is.
 */
export interface TClientRowRead<R, N extends string = string> extends TAppRowRead<R, N> {
  readonly read: (
    db: Db,
    clientId: string,
    id: string,
  ) => Promise<{ credential: TClientCredential | null; row: R | null }>;
}

/**
 * Defines a row read with the credential (lib/auth/store/credentials.ts `credentialWithRow`, the
 * statement `name`). `row` reads at most one row by its primary key `id`, the path parameter (already
 * checked by format: lib/http/validation.ts), as one JSON object (a scalar subquery selecting a
 * `jsonBuildObject`) in a subquery of the app's row: without a row of its own the credential is
 * still read and checked, so its 401 comes before any 404. Its values are therefore JSON values
 * (timestamps as epoch milliseconds: lib/db/timestamps.ts), which `parse` turns into the
 * handler's row. The handler checks that the row is the app's, as it would after a read of its
 * own.
 */
export function defineAppRowRead<const N extends string, O extends Record<keyof O, TJsonSafe>, R>(read: {
  name: string;
  param: N;
  row: (db: Db, id: string) => AliasableExpression<O | null>;
  parse: (row: TJsonRow<O>) => R;
}): TAppRowRead<R, N> {
  const statement = credentialWithRow(read.name, read.row);
  return {
    param: read.param,
    async read(db, clientId, id) {
      const { credential, row } = await statement(db, clientId, id);
      return { credential, row: row === null ? null : read.parse(row) };
    },
  };
}

/** defineAppRowRead whose statement also reads the app's OpenID client settings. */
export function defineClientRowRead<const N extends string, O extends Record<keyof O, TJsonSafe>, R>(read: {
  name: string;
  param: N;
  row: (db: Db, id: string) => AliasableExpression<O | null>;
  parse: (row: TJsonRow<O>) => R;
}): TClientRowRead<R, N> {
  const statement = clientCredentialWithRow(read.name, read.row);
  return {
    param: read.param,
    async read(db, clientId, id) {
      const { credential, row } = await statement(db, clientId, id);
      return { credential, row: row === null ? null : read.parse(row) };
    },
  };
}

/**
 * `ip`: the caller's address, for the limits of failed checks (lib/rate-limit/credentials.ts);
 * null outside a request (no limits).
 */
export async function authenticateApp(
  db: Db,
  authorization: string | null,
  environment: TEnvironment,
  ip: string | null = null,
): Promise<AppAuth> {
  return limitedCheck(authorization, ip, async (basic) => {
    const credential = await readAppCredential(db, basic.username);
    return checkAppCredential(credential ?? null, basic, environment);
  });
}

/**
 * authenticateApp reading `read`'s row named `id` in the same statement: the app and its row
 * (null when none), or exactly authenticateApp's refusals (the row is then dropped unread).
 * `id` must have passed the path parameter check.
 */
export async function authenticateAppWith<R>(
  db: Db,
  authorization: string | null,
  environment: TEnvironment,
  ip: string | null,
  read: TAppRowRead<R>,
  id: string,
): Promise<{ auth: AppAuth; row: R | null }> {
  return limitedCheck(authorization, ip, async (basic) => {
    const found = await read.read(db, basic.username, id);
    const auth = checkAppCredential(found.credential, basic, environment);
    return { auth, row: found.row };
  });
}

/** authenticateApp with the app's OpenID client settings. */
export async function authenticateClientApp(
  db: Db,
  authorization: string | null,
  environment: TEnvironment,
  ip: string | null = null,
): Promise<TClientApp> {
  return limitedCheck(authorization, ip, async (basic) => {
    const credential = (await readClientCredential(db, basic.username)) ?? null;
    return withSettings(checkAppCredential(credential, basic, environment), credential!);
  });
}

/** authenticateAppWith with the app's OpenID client settings. */
export async function authenticateClientAppWith<R>(
  db: Db,
  authorization: string | null,
  environment: TEnvironment,
  ip: string | null,
  read: TClientRowRead<R>,
  id: string,
): Promise<{ auth: TClientApp; row: R | null }> {
  return limitedCheck(authorization, ip, async (basic) => {
    const found = await read.read(db, basic.username, id);
    const auth = checkAppCredential(found.credential, basic, environment);
    return { auth: withSettings(auth, found.credential!), row: found.row };
  });
}

/**
 * The app `clientId` names, without a secret (a client assertion: its signature is the OP's check,
 * lib/oidc/client-assertion.ts): null when it is no app, is deleted or of the other environment.
 * No limits here: the caller counts its failures.
 */
export async function findClientApp(
  db: Db,
  clientId: string,
  environment: TEnvironment,
): Promise<TClientApp | null> {
  if (!isId("app", clientId)) return null;
  return usableClient((await readClientCredential(db, clientId)) ?? null, environment);
}

/** findClientApp reading `read`'s row `id` in the same statement (row null when none). */
export async function findClientAppWith<R>(
  db: Db,
  clientId: string,
  environment: TEnvironment,
  read: TClientRowRead<R>,
  id: string,
): Promise<{ app: TClientApp | null; row: R | null }> {
  if (!isId("app", clientId)) return { app: null, row: null };
  const found = await read.read(db, clientId, id);
  return { app: usableClient(found.credential, environment), row: found.row };
}

function usableClient(credential: TClientCredential | null, environment: TEnvironment): TClientApp | null {
  if (!credential || credential.deletedAt !== null || credential.environment !== environment) return null;
  return withSettings(
    { kind: "app", clientId: credential.id, workspaceId: credential.workspaceId, environment },
    credential,
  );
}

function withSettings(auth: AppAuth, c: TClientCredential): TClientApp {
  const settings = {
    tokenEndpointAuthMethod: c.tokenEndpointAuthMethod,
    jwks: c.jwks,
    jwksUri: c.jwksUri,
    requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests,
    requireDpop: c.requireDpop,
    oidcProfile: c.oidcProfile,
    pkceRequired: c.pkceRequired,
  } satisfies TClientApp["settings"];
  return { ...auth, settings };
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
    app.deletedAt !== null ||
    app.environment !== environment ||
    !app.clientSecretHash ||
    !basic.password.startsWith(`cs_${ENV_TAG[environment]}_`) ||
    !digestEquals(app.clientSecretHash, hash)
  ) {
    throw invalid();
  }
  return { kind: "app", clientId: app.id, workspaceId: app.workspaceId, environment };
}
