/**
 * The authorization_code grant: a presented code becomes an ID token for the verification it was
 * issued for. Used by the REST `{base_url}/token` and, with access tokens added, the OpenID
 * Provider's `/token`.
 * Rules:
 * - the code must pass every check of lib/oidc/codes.ts; failures are invalid_grant, answered
 *   with 401 as the spec's App API table says ("401 invalid code"; RFC 6749 §5.2 would say 400);
 * - the verification must belong to the client and be completed, with a subject; otherwise
 *   invalid_grant, and the code is left unconsumed (the whole exchange is one transaction);
 * - the ID token carries no personal data: sub, acr (from the LoA), amr ([providerId]),
 *   auth_time (verifiedAt), the code's nonce;
 * - a redeemed code, and a code presented again after use, are audited;
 * - the OpenID Provider (`accessTokenTtlSeconds` set) also gets an opaque access token, stored as
 *   SHA-256 with the code's hash, and at_hash in the ID token; a code presented again revokes
 *   every access token issued from it (RFC 6749 §4.1.2);
 * - each endpoint redeems only the codes its own surface issued (`surface`): an OP code at the
 *   REST /token, or a REST code at the OP's /token, is invalid_grant and left unconsumed.
 */
import { randomBytes } from "node:crypto";
import { recordAudit } from "../audit";
import { SYSTEM_ACTOR, type TActor } from "../auth/actor";
import { sha256Hex } from "../crypto/hash";
import type { Db } from "../db/client";
import type { AuthorizationCode } from "../db/generated/client";
import type { TEnvironment } from "../environments";
import { clientIp } from "../rate-limit";
import { acrFor } from "../verifications/loa";
import { authenticateClient, type TAuthenticatedClient } from "./client-auth";
import { redeemAuthorizationCode, type TCodeSurface } from "./codes";
import { OAuthError } from "./errors";
import { mintIdToken } from "./id-token";
import { getSigningKey, type TSigningAlg } from "./keys";
import { issuerFor } from "./settings";
import { parseCodeGrant, readTokenParams } from "./token-request";

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
}

export interface TExchangeCodeResult {
  idToken: string;
  accessToken?: string;
  verificationId: string;
  code: AuthorizationCode;
}

export async function exchangeAuthorizationCode(
  db: Db,
  input: TExchangeCodeInput,
): Promise<TExchangeCodeResult> {
  const invalidGrantStatus = input.invalidGrantStatus ?? INVALID_GRANT_STATUS;
  // Load (or create) the signing key before the transaction takes a connection: creating a key
  // needs a connection of its own, and many first exchanges at once must not exhaust the pool.
  await getSigningKey(db, input.environment, input.alg ?? "ES256");
  // every entry of an exchange: the client's workspace, the URL's environment, the request
  const auditScope = {
    workspaceId: input.client.workspaceId,
    environment: input.environment,
    ...(input.requestId ? { requestId: input.requestId } : {}),
  };
  const clientActor: TActor = { type: "api_key", id: input.client.clientId };
  const outcome = await db.$transaction(
    async (tx) => {
      const redeemed = await redeemAuthorizationCode(tx, {
        code: input.code,
        appId: input.client.clientId,
        environment: input.environment,
        surface: input.surface,
        ...(input.redirectUri !== undefined ? { redirectUri: input.redirectUri } : {}),
        ...(input.codeVerifier !== undefined ? { codeVerifier: input.codeVerifier } : {}),
      });
      if (!redeemed.ok) {
        if (redeemed.reused && redeemed.code) {
          const revoked = await tx.oidcAccessToken.updateMany({
            where: { codeHash: redeemed.code.codeHash, revokedAt: null },
            data: { revokedAt: new Date() },
          });
          if (revoked.count > 0) {
            await recordAudit(tx, {
              ...auditScope,
              actor: SYSTEM_ACTOR,
              action: "oidc_access_token.revoked",
              targetType: "verification",
              targetId: redeemed.code.verificationId,
              data: { reason: "authorization_code_reused", count: revoked.count },
            });
          }
          await recordAudit(tx, {
            ...auditScope,
            actor: clientActor,
            action: "authorization_code.reused",
            targetType: "verification",
            targetId: redeemed.code.verificationId,
          });
        }
        return { ok: false as const, description: redeemed.description };
      }
      const code = redeemed.code;
      const verification = await tx.verification.findUnique({ where: { id: code.verificationId } });
      if (
        !verification ||
        verification.appId !== code.appId ||
        verification.environment !== input.environment ||
        verification.status !== "completed" ||
        !verification.subject
      ) {
        // thrown, so the transaction rolls back and the code is not consumed
        throw new OAuthError(
          "invalid_grant",
          "The verification of this authorization code is not completed",
          invalidGrantStatus,
        );
      }
      let accessToken: string | undefined;
      if (input.accessTokenTtlSeconds !== undefined) {
        accessToken = randomBytes(32).toString("base64url");
        await tx.oidcAccessToken.create({
          data: {
            tokenHash: sha256Hex(accessToken),
            appId: code.appId,
            environment: input.environment,
            verificationId: verification.id,
            codeHash: code.codeHash,
            scope: code.scope ?? "openid",
            expiresAt: new Date(Date.now() + input.accessTokenTtlSeconds * 1000),
          },
        });
      }
      const idToken = await mintIdToken(tx, {
        environment: input.environment,
        issuer: input.issuer ?? issuerFor(input.environment),
        audience: input.client.clientId,
        subject: verification.subject,
        authTime: verification.verifiedAt ?? verification.updatedAt,
        acr: acrFor(verification.loa ?? 0),
        amr: [verification.providerId],
        ...(code.nonce !== null ? { nonce: code.nonce } : {}),
        ...(input.includeVerificationId ? { verificationId: verification.id } : {}),
        ...(accessToken !== undefined ? { accessToken } : {}),
        ...(input.alg ? { alg: input.alg } : {}),
      });
      await recordAudit(tx, {
        ...auditScope,
        actor: clientActor,
        action: "authorization_code.redeemed",
        targetType: "verification",
        targetId: verification.id,
      });
      return {
        ok: true as const,
        result: { idToken, verificationId: verification.id, code, ...(accessToken ? { accessToken } : {}) },
      };
    },
    { timeout: 15_000, maxWait: 10_000 },
  );
  if (!outcome.ok) throw new OAuthError("invalid_grant", outcome.description, invalidGrantStatus);
  return outcome.result;
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
  },
): Promise<TExchangeCodeResult> {
  const grant = parseCodeGrant(await readTokenParams(request));
  const client = await authenticateClient(db, environment, {
    authorization: request.headers.get("authorization"),
    ip: clientIp(request.headers),
    ...(grant.client_id !== undefined ? { clientId: grant.client_id } : {}),
    ...(grant.client_secret !== undefined ? { clientSecret: grant.client_secret } : {}),
  });
  const { issuerFor: resolveIssuer, ...rest } = policy;
  return exchangeAuthorizationCode(db, {
    ...rest,
    environment,
    client,
    code: grant.code,
    ...(grant.redirect_uri !== undefined ? { redirectUri: grant.redirect_uri } : {}),
    ...(grant.code_verifier !== undefined ? { codeVerifier: grant.code_verifier } : {}),
    ...(resolveIssuer ? { issuer: await resolveIssuer(client.clientId) } : {}),
  });
}
