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
 * - a redeemed code, and a code presented again after use, are audited.
 */
import { recordAudit } from "../audit";
import type { Db } from "../db/client";
import type { AuthorizationCode } from "../db/generated/client";
import type { TEnvironment } from "../environments";
import { acrFor } from "../verifications/loa";
import type { TAuthenticatedClient } from "./client-auth";
import { redeemAuthorizationCode } from "./codes";
import { OAuthError } from "./errors";
import { mintIdToken } from "./id-token";
import { getSigningKey, type TSigningAlg } from "./keys";
import { issuerFor } from "./settings";

/** invalid_grant's status on our token endpoints (spec: "401 invalid code or client credentials"). */
export const INVALID_GRANT_STATUS = 401;

export interface TExchangeCodeInput {
  environment: TEnvironment;
  client: Pick<TAuthenticatedClient, "clientId" | "workspaceId">;
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
}

export interface TExchangeCodeResult {
  idToken: string;
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
  const outcome = await db.$transaction(
    async (tx) => {
      const redeemed = await redeemAuthorizationCode(tx, {
        code: input.code,
        appId: input.client.clientId,
        environment: input.environment,
        ...(input.redirectUri !== undefined ? { redirectUri: input.redirectUri } : {}),
        ...(input.codeVerifier !== undefined ? { codeVerifier: input.codeVerifier } : {}),
      });
      if (!redeemed.ok) {
        if (redeemed.reused && redeemed.code) {
          await recordAudit(tx, {
            workspaceId: input.client.workspaceId,
            environment: input.environment,
            actorType: "api_key",
            actorId: input.client.clientId,
            action: "authorization_code.reused",
            targetType: "verification",
            targetId: redeemed.code.verificationId,
            ...(input.requestId ? { requestId: input.requestId } : {}),
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
        ...(input.alg ? { alg: input.alg } : {}),
      });
      await recordAudit(tx, {
        workspaceId: input.client.workspaceId,
        environment: input.environment,
        actorType: "api_key",
        actorId: input.client.clientId,
        action: "authorization_code.redeemed",
        targetType: "verification",
        targetId: verification.id,
        ...(input.requestId ? { requestId: input.requestId } : {}),
      });
      return { ok: true as const, result: { idToken, verificationId: verification.id, code } };
    },
    { timeout: 15_000, maxWait: 10_000 },
  );
  if (!outcome.ok) throw new OAuthError("invalid_grant", outcome.description, invalidGrantStatus);
  return outcome.result;
}
