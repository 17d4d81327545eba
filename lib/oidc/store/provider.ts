/**
 * The OpenID Provider's browser endpoints and /userinfo on the data layer (lib/db/kysely.ts),
 * every statement prepared (each runs on a request):
 * - /auth (provider/authorize.ts): the client's app with its providers, the count of its
 *   untouched sessions (provider/untouched.ts), the authorization request written;
 * - /resume (provider/resume.ts): the request by its resume token, its session and app, the
 *   request's one-time claim;
 * - the issuer of a custom OIDC domain (provider/issuer.ts);
 * - /userinfo's access token with its verification and its app (provider/userinfo.ts).
 * Rules:
 * - a row's type is the query's; a nested row (the app's providers) names its keys itself
 *   (`jsonBuildObject`, `o`: the data layer maps only a result row's own columns);
 * - timestamps a row gets are set here, from this process's clock;
 * - the resume's claim is one conditional update (`completed_at` only while null): of a reload
 *   and a second tab exactly one answers.
 */
import { sql, type Insertable } from "kysely";
import { prepared, type Db, type DB } from "../../db/kysely";
import { CLIENT_SETTINGS_COLUMNS } from "../../db/rows";
import { appProviderStates } from "../../providers/store";
import type { TEnvironment } from "../../environments";

// ---------------------------------------------------------------------------------------------
// /auth (provider/authorize.ts, check-client.ts)

const CLIENT_APP = prepared("oidc_client_app", (db, p: { clientId: string }) =>
  db
    .selectFrom("apps as a")
    .select(["a.id", "a.workspaceId", "a.environment", "a.name", "a.logo", "a.redirectUris", "a.deletedAt"])
    // the app's OIDC client settings (lib/oidc/profile.ts clientPolicy) and keys (client-keys.ts)
    .select(CLIENT_SETTINGS_COLUMNS)
    .select(appProviderStates(db).as("providers"))
    .where("a.id", "=", p.clientId),
);

/** App `clientId` (deleted or not) with its providers, in id order; undefined when there is none. */
export async function readClientApp(db: Db, clientId: string) {
  const [row] = await CLIENT_APP.run(db, { clientId });
  return row && { ...row, providers: row.providers.map(({ o }) => o) };
}

/** The client app of an authorization request, as /auth reads it. */
export type TClientAppRow = NonNullable<Awaited<ReturnType<typeof readClientApp>>>;

type TNewAuthorizationRequest = Required<
  Omit<Insertable<DB["oidcAuthorizationRequests"]>, "resumeProofHash" | "completedAt">
> & { createdAt: Date; expiresAt: Date };

const INSERT_REQUEST = prepared("oidc_authorization_request_insert", (db, p: TNewAuthorizationRequest) =>
  db.insertInto("oidcAuthorizationRequests").values({
    id: p.id,
    verificationId: p.verificationId,
    resumeToken: p.resumeToken,
    browserBindingHash: p.browserBindingHash,
    handoffHash: p.handoffHash,
    appId: p.appId,
    environment: p.environment,
    redirectUri: p.redirectUri,
    issuer: p.issuer,
    scope: p.scope,
    state: p.state,
    nonce: p.nonce,
    codeChallenge: p.codeChallenge,
    responseMode: p.responseMode,
    acrValues: p.acrValues,
    minLoa: p.minLoa,
    maxAge: p.maxAge,
    prompt: p.prompt,
    uiLocales: p.uiLocales,
    dpopJkt: p.dpopJkt,
    createdAt: p.createdAt,
    expiresAt: p.expiresAt,
  }),
);

/** Stores an authorization request (its session was created in the same transaction). */
export async function insertAuthorizationRequest(db: Db, request: TNewAuthorizationRequest): Promise<void> {
  await INSERT_REQUEST.run(db, request);
}

// ---------------------------------------------------------------------------------------------
// /resume (provider/resume.ts)

const REQUEST_BY_RESUME_TOKEN = prepared("oidc_resume_request", (db, p: { resumeToken: string }) =>
  db.selectFrom("oidcAuthorizationRequests").selectAll().where("resumeToken", "=", p.resumeToken),
);

/** The authorization request of `resumeToken`; undefined when there is none. */
export async function readRequestByResumeToken(db: Db, resumeToken: string) {
  const [row] = await REQUEST_BY_RESUME_TOKEN.run(db, { resumeToken });
  return row;
}

const RESUME_VERIFICATION = prepared("oidc_resume_verification", (db, p: { id: string }) =>
  db.selectFrom("verifications").select(["id", "status", "statusReason", "loa"]).where("id", "=", p.id),
);

/** What the resume answers from of session `id`; undefined when it is gone. */
export async function readResumedVerification(db: Db, id: string) {
  const [row] = await RESUME_VERIFICATION.run(db, { id });
  return row;
}

const RESUME_APP = prepared("oidc_resume_app", (db, p: { id: string }) =>
  db
    .selectFrom("apps")
    .select(["id", "deletedAt", "redirectUris"])
    // clientPolicy (lib/oidc/profile.ts): the code's lifetime ceiling
    .select(CLIENT_SETTINGS_COLUMNS)
    .where("id", "=", p.id),
);

/** Whether the client of a resumed sign-in still exists and may be answered: app `id`, or undefined. */
export async function readResumedApp(db: Db, id: string) {
  const [row] = await RESUME_APP.run(db, { id });
  return row;
}

const CLAIM_REQUEST = prepared("oidc_resume_claim", (db, p: { id: string; now: Date }) =>
  db
    .updateTable("oidcAuthorizationRequests")
    .set({ completedAt: p.now })
    .where("id", "=", p.id)
    .where("completedAt", "is", null)
    .returning("id"),
);

/** Marks request `id` completed at `now` if it is not yet: false when it was answered already. */
export async function claimAuthorizationRequest(db: Db, id: string, now: Date): Promise<boolean> {
  return (await CLAIM_REQUEST.run(db, { id, now })).length === 1;
}

// ---------------------------------------------------------------------------------------------
// The issuer of a custom OIDC domain (provider/issuer.ts)

const activeDomain = (db: Db, p: { name: string; environment: TEnvironment }) =>
  db
    .selectFrom("customDomains as d")
    .innerJoin("apps as a", "a.id", "d.appId")
    .select("d.oidcDomain")
    .where("d.oidcDomain", "=", p.name)
    .where("d.status", "=", "active")
    .where("a.environment", "=", p.environment)
    .where("a.deletedAt", "is", null)
    .limit(1);

const ACTIVE_DOMAIN = prepared("oidc_active_domain", (db, p: { name: string; environment: TEnvironment }) =>
  activeDomain(db, p),
);

const ACTIVE_DOMAIN_OF_CLIENT = prepared(
  "oidc_active_domain_of_client",
  (db, p: { name: string; environment: TEnvironment; clientId: string }) =>
    activeDomain(db, p).where("a.id", "=", p.clientId),
);

/**
 * `name` when it is the oidcDomain of an active custom domain of a live app of `environment`
 * (of app `clientId` when given); else undefined.
 */
export async function readActiveOidcDomain(
  db: Db,
  environment: TEnvironment,
  name: string,
  clientId?: string,
): Promise<string | undefined> {
  const [row] =
    clientId === undefined
      ? await ACTIVE_DOMAIN.run(db, { name, environment })
      : await ACTIVE_DOMAIN_OF_CLIENT.run(db, { name, environment, clientId });
  return row?.oidcDomain;
}

// ---------------------------------------------------------------------------------------------
// /userinfo (provider/userinfo.ts) and /auth's cap of untouched sessions (provider/untouched.ts)

const ACCESS_TOKEN = prepared("oidc_userinfo_access_token", (db, p: { tokenHash: string }) =>
  db
    .selectFrom("oidcAccessTokens as t")
    .leftJoin("verifications as v", "v.id", "t.verificationId")
    .leftJoin("apps as a", "a.id", "t.appId")
    .select((eb) => [
      "t.appId",
      "t.environment",
      "t.expiresAt",
      "t.revokedAt",
      // RFC 9449 §6: the DPoP key the token is bound to (null: a Bearer token)
      "t.dpopJkt",
      // the client's policy (lib/oidc/profile.ts): the algorithms of its DPoP proofs
      "a.oidcProfile",
      "v.id as verificationId",
      "v.status as verificationStatus",
      "v.personalDataDeletedAt",
      "v.resultEncrypted",
      eb
        .cast<boolean>(eb.and([eb("a.id", "is not", null), eb("a.deletedAt", "is", null)]), "boolean")
        .as("appLive"),
    ])
    .where("t.tokenHash", "=", p.tokenHash),
);

/**
 * An access token by its hash, with what /userinfo answers from: its verification's sealed
 * userinfo (null columns: the verification is gone) and whether its app exists and is not deleted.
 */
export async function readAccessToken(db: Db, tokenHash: string) {
  const [row] = await ACCESS_TOKEN.run(db, { tokenHash });
  return row;
}

// ---------------------------------------------------------------------------------------------
// /auth's cap of untouched sessions (provider/untouched.ts)

const COUNT_UNTOUCHED = prepared(
  "oidc_untouched_sessions",
  (db, p: { appId: string; since: Date; limit: number }) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom("verifications")
          .select(sql.lit(1).as("one"))
          .where("appId", "=", p.appId)
          // `untouched` itself (not `= $n`): the partial index of untouched rows applies
          .where((v) => v.ref("untouched"))
          .where("createdAt", ">=", p.since)
          .limit(p.limit)
          .as("capped"),
      )
      .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n")),
);

/** How many untouched sessions of `appId` were created since `since`, counted up to `limit`. */
export async function countUntouchedSessions(
  db: Db,
  appId: string,
  since: Date,
  limit: number,
): Promise<number> {
  const [row] = await COUNT_UNTOUCHED.run(db, { appId, since, limit });
  return row?.n ?? 0;
}
