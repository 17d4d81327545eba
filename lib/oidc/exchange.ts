/**
 * The authorization_code grant: a presented code becomes an ID token for the verification it was
 * issued for. Used by the REST `{base_url}/token` and, with access tokens added, the OpenID
 * Provider's `/token`.
 * Rules:
 * - the code must pass every check of lib/oidc/codes.ts; failures are invalid_grant, answered
 *   with 401 as the spec's App API table says ("401 invalid code"; RFC 6749 §5.2 would say 400);
 * - the verification must belong to the client and be completed, with a subject; otherwise
 *   invalid_grant, and the code is left unconsumed;
 * - two statements (store/grant.ts): the code with its verification is read and checked (at the
 *   token endpoints in the client credential's own statement), the ID token minted, then the
 *   code is consumed together with the access token and the audit entry in one atomic
 *   statement; a code a concurrent redemption consumed first is a reused code;
 * - the ID token carries no personal data: sub, acr (from the LoA), amr ([providerId]),
 *   auth_time (verifiedAt), the code's nonce;
 * - a redeemed code, and a code presented again after use, are audited;
 * - the OpenID Provider (`accessTokenTtlSeconds` set) also gets an opaque access token, stored as
 *   SHA-256 with the code's hash, and at_hash in the ID token; a code presented again revokes
 *   every access token issued from it (RFC 6749 §4.1.2);
 * - each endpoint redeems only the codes its own surface issued (`surface`): an OP code at the
 *   REST /token, or a REST code at the OP's /token, is invalid_grant and left unconsumed;
 * - DPoP (RFC 9449, lib/oidc/dpop.ts; OpenID Provider only): with a proof (`dpopJkt`), the access
 *   token is bound to its key (the thumbprint is stored on the token's row); a code bound to a
 *   key (dpop_jkt, §10) needs a proof of that very key: none, or another key, is invalid_grant
 *   (§10 names no code; the grant is bound to another key) and leaves the code unused.
 */
import { randomBytes } from "node:crypto";
import { recordAudit } from "../audit";
import { SYSTEM_ACTOR, type TActor } from "../auth/actor";
import { sha256Hex } from "../crypto/hash";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { clientIp } from "../rate-limit";
import { acrFor } from "../verifications/loa";
import { authenticateClient, authenticateClientWith, type TAuthenticatedClient } from "./client-auth";
import { checkCode, codeHashOf, rejectCode, type TCodeSurface, type TStoredCode } from "./codes";
import { OAuthError } from "./errors";
import {
  consumeGrant,
  grantWithCredential,
  readGrant,
  revokeAccessTokensOfCode,
  type TGrant,
} from "./store/grant";
import { mintIdToken } from "./id-token";
import { getSigningKey, type TSigningAlg } from "./keys";
import { issuerFor } from "./settings";
import { parseCodeGrant, readTokenParams } from "./token-request";
import { inTransaction } from "../db/kysely";

/** invalid_grant's status on our token endpoints (spec: "401 invalid code or client credentials"). */
export const INVALID_GRANT_STATUS = 401;

export interface TExchangeCodeInput {
  environment: TEnvironment;
  client: Pick<TAuthenticatedClient, "clientId" | "workspaceId">;
  /** the token endpoint: it redeems only codes its own surface issued */
  surface: TCodeSurface;
  code: string;
  redirectUri?: string;
  codeVerifier?: string;
  /** default: the environment's issuer on the service's own host */
  issuer?: string;
  alg?: TSigningAlg;
  /** add the verification id to the ID token (REST exchange: lets the app fetch userinfo) */
  includeVerificationId?: boolean;
  requestId?: string;
  /** status of invalid_grant: 401 on the REST /token (spec); the OpenID Provider may use RFC 6749's 400 */
  invalidGrantStatus?: number;
  /** OpenID Provider: issue an access token of this lifetime alongside the ID token */
  accessTokenTtlSeconds?: number;
  /** the code's row, already read with the client's credential (null: none); else read here */
  grant?: TGrant | null;
  /** OpenID Provider: the JWK thumbprint of the request's valid DPoP proof (lib/oidc/dpop.ts) */
  dpopJkt?: string;
}

export interface TExchangeCodeResult {
  idToken: string;
  accessToken?: string;
  /** the access token is DPoP-bound to this key (token_type DPoP) */
  dpopJkt?: string;
  verificationId: string;
  code: TStoredCode;
}

export async function exchangeAuthorizationCode(
  db: Db,
  input: TExchangeCodeInput,
): Promise<TExchangeCodeResult> {
  const invalidGrantStatus = input.invalidGrantStatus ?? INVALID_GRANT_STATUS;
  // Load (or create) the signing key first: creating a key takes a transaction of its own
  // (lib/oidc/keys.ts); after that it comes from the process's cache.
  await getSigningKey(db, input.environment, input.alg ?? "ES256");
  // every entry of an exchange: the client's workspace, the URL's environment, the request
  const auditScope = {
    workspaceId: input.client.workspaceId,
    environment: input.environment,
    ...(input.requestId ? { requestId: input.requestId } : {}),
  };
  const clientActor: TActor = { type: "api_key", id: input.client.clientId };
  const now = new Date();
  const codeHash = codeHashOf(input.code);
  const grant = input.grant !== undefined ? input.grant : codeHash ? await readGrant(db, codeHash) : null;
  const refused = checkCode(
    grant?.code ?? null,
    {
      appId: input.client.clientId,
      environment: input.environment,
      surface: input.surface,
      ...(input.redirectUri !== undefined ? { redirectUri: input.redirectUri } : {}),
      ...(input.codeVerifier !== undefined ? { codeVerifier: input.codeVerifier } : {}),
    },
    now,
  );
  if (refused || !grant) {
    const rejection = refused ?? rejectCode("unknown_code");
    if (!rejection.ok && rejection.reused && rejection.code) {
      await revokeOnReuse(db, rejection.code, auditScope, clientActor);
    }
    throw new OAuthError("invalid_grant", rejection.ok ? "" : rejection.description, invalidGrantStatus);
  }
  const { code, verification } = grant;
  if (code.dpopJkt !== null && input.dpopJkt === undefined) {
    throw new OAuthError(
      "invalid_grant",
      "DPoP: the authorization code is bound to a DPoP key (dpop_jkt): send a DPoP proof of that key",
      invalidGrantStatus,
    );
  }
  if (code.dpopJkt !== null && code.dpopJkt !== input.dpopJkt) {
    throw new OAuthError(
      "invalid_grant",
      "DPoP: the DPoP proof's key does not match the authorization code's dpop_jkt",
      invalidGrantStatus,
    );
  }
  if (
    !verification ||
    verification.appId !== code.appId ||
    verification.environment !== input.environment ||
    verification.status !== "completed" ||
    !verification.subject
  ) {
    // nothing was written: the code stays unused
    throw new OAuthError(
      "invalid_grant",
      "The verification of this authorization code is not completed",
      invalidGrantStatus,
    );
  }
  const accessToken =
    input.accessTokenTtlSeconds !== undefined ? randomBytes(32).toString("base64url") : undefined;
  const idToken = await mintIdToken(db, {
    environment: input.environment,
    issuer: input.issuer ?? issuerFor(input.environment),
    audience: input.client.clientId,
    subject: verification.subject,
    authTime: verification.authTime,
    acr: acrFor(verification.loa ?? 0),
    amr: [verification.providerId],
    ...(code.nonce !== null ? { nonce: code.nonce } : {}),
    ...(input.includeVerificationId ? { verificationId: verification.id } : {}),
    ...(accessToken !== undefined ? { accessToken } : {}),
    ...(input.alg ? { alg: input.alg } : {}),
    now,
  });
  const consumed = await consumeGrant(db, {
    code,
    now,
    ...(accessToken !== undefined && input.accessTokenTtlSeconds !== undefined
      ? {
          accessToken: {
            tokenHash: sha256Hex(accessToken),
            scope: code.scope ?? "openid",
            expiresAt: new Date(now.getTime() + input.accessTokenTtlSeconds * 1000),
            ...(input.dpopJkt !== undefined ? { dpopJkt: input.dpopJkt } : {}),
          },
        }
      : {}),
    audit: {
      ...auditScope,
      actor: clientActor,
      action: "authorization_code.redeemed",
      targetType: "verification",
      targetId: verification.id,
    },
  });
  if (!consumed) {
    // a concurrent redemption got there first: this one is a reuse, and what that one issued is
    // revoked (RFC 6749 §4.1.2); what was minted here is never handed out
    const reused = rejectCode("reused", code);
    await revokeOnReuse(db, code, auditScope, clientActor);
    throw new OAuthError("invalid_grant", reused.ok ? "" : reused.description, invalidGrantStatus);
  }
  return {
    idToken,
    verificationId: verification.id,
    code: { ...code, usedAt: now },
    ...(accessToken ? { accessToken } : {}),
    ...(accessToken && input.dpopJkt !== undefined ? { dpopJkt: input.dpopJkt } : {}),
  };
}

/**
 * A code presented again after its use: every access token issued from it is revoked, and both
 * are audited, in one transaction.
 */
async function revokeOnReuse(
  db: Db,
  code: Pick<TStoredCode, "codeHash" | "verificationId">,
  auditScope: { workspaceId: string; environment: TEnvironment; requestId?: string },
  clientActor: TActor,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const revoked = await revokeAccessTokensOfCode(tx, code.codeHash, new Date());
    if (revoked > 0) {
      await recordAudit(tx, {
        ...auditScope,
        actor: SYSTEM_ACTOR,
        action: "oidc_access_token.revoked",
        targetType: "verification",
        targetId: code.verificationId,
        data: { reason: "authorization_code_reused", count: revoked },
      });
    }
    await recordAudit(tx, {
      ...auditScope,
      actor: clientActor,
      action: "authorization_code.reused",
      targetType: "verification",
      targetId: code.verificationId,
    });
  });
}

/**
 * A whole code-grant token request: read the body, authenticate the client (Basic or body
 * credentials), redeem the code. The REST /token and the OpenID Provider's /token differ only in
 * `policy` and in how they shape the answer.
 */
export async function handleCodeGrant(
  db: Db,
  request: Request,
  environment: TEnvironment,
  policy: Omit<
    TExchangeCodeInput,
    "environment" | "client" | "code" | "redirectUri" | "codeVerifier" | "issuer"
  > & {
    /** the issuer for this client (custom OIDC domains); default the environment's own */
    issuerFor?: (clientId: string) => Promise<string>;
    /** OpenID Provider: checks the request's DPoP proof (after client authentication, before the
     *  code is looked at): the proof key's thumbprint, or undefined without a proof */
    checkDpop?: (client: TAuthenticatedClient, issuer: string | undefined) => Promise<string | undefined>;
    /** OpenID Provider: the issuer and this endpoint's URL (private_key_jwt, the app's method
     *  enforced: lib/oidc/client-auth.ts) */
    op?: { issuer: string; endpointUrl: string };
  },
): Promise<TExchangeCodeResult> {
  const grant = parseCodeGrant(await readTokenParams(request));
  const credentials = {
    authorization: request.headers.get("authorization"),
    ip: clientIp(request.headers),
    ...(grant.client_id !== undefined ? { clientId: grant.client_id } : {}),
    ...(grant.client_secret !== undefined ? { clientSecret: grant.client_secret } : {}),
    ...(grant.client_assertion_type !== undefined
      ? { clientAssertionType: grant.client_assertion_type }
      : {}),
    ...(grant.client_assertion !== undefined ? { clientAssertion: grant.client_assertion } : {}),
    ...(policy.op ? { op: policy.op } : {}),
  };
  // the client's credential and the code in one statement (a code that cannot be ours is not
  // looked up: the exchange refuses it)
  const codeHash = codeHashOf(grant.code);
  const authenticated = codeHash
    ? await authenticateClientWith(db, environment, credentials, grantWithCredential, codeHash)
    : { client: await authenticateClient(db, environment, credentials), row: null };
  const { client } = authenticated;
  const { issuerFor: resolveIssuer, checkDpop, op: _op, ...rest } = policy;
  const issuer = resolveIssuer ? await resolveIssuer(client.clientId) : undefined;
  const dpopJkt = checkDpop ? await checkDpop(client, issuer) : undefined;
  return exchangeAuthorizationCode(db, {
    ...rest,
    environment,
    client,
    grant: authenticated.row,
    code: grant.code,
    ...(grant.redirect_uri !== undefined ? { redirectUri: grant.redirect_uri } : {}),
    ...(grant.code_verifier !== undefined ? { codeVerifier: grant.code_verifier } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(dpopJkt !== undefined ? { dpopJkt } : {}),
  });
}
