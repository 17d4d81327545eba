/**
 * Production dc sessions run by a wallet provider, through the browser's Digital Credentials
 * API (the session glue around lib/providers/adapters/wallet.ts).
 * Rules:
 * - only production sessions with flow type dc whose provider's production adapter is "wallet"
 *   and which have an enabled `wallet` connection in production (lib/connections: {issuers:
 *   {iss: JWKS}, vct: [...], loa?}, managed through the Operator API; IDV_WALLET_TRUSTED_ISSUERS
 *   is only imported into connections at start-up); anything else is not found, sandbox
 *   sessions always use the simulator;
 * - asking for the request marks the session authenticating and seals a fresh nonce and the
 *   expected origin in it (a new request replaces the previous one, so only the latest
 *   presentation can answer); the claims asked for are the workflow plan's sourceClaims;
 * - the wallet's answer is verified outside any transaction, then applied in one; a shape error
 *   in the posted body changes nothing (400 naming the field), a presentation that does not
 *   verify fails the session with the adapter's reason: credential_revoked, credential_suspended,
 *   credential_expired, credential_not_yet_valid, else invalid_presentation;
 * - a verified presentation is recorded in the connection's health (upstream-faults.ts);
 * - claims are never logged.
 */
import { randomBytes } from "node:crypto";
import { connectionSettings } from "../connections/runtime";
import { publicUrl } from "../config";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { kysely } from "../db/client";
import type { Verification } from "../db/rows";
import { ApiError, invalidField } from "../errors";
import {
  buildWalletRequest,
  readWalletResponse,
  verifyWalletPresentation,
  type TWalletRequest,
  type TWalletTrustConfig,
} from "../providers/adapters/wallet";
import { findProvider } from "../providers/catalog";
import { planVerification } from "../workflows/engine/plan";
import { runnableWorkflow } from "../workflows/row";
import { applyAdapterOutcome } from "./outcome";
import { readAppProviderStates, readWorkflowContent } from "./store/plan";
import { readVerification } from "./store/session";
import { lockVerification, startSession } from "./transitions";
import { recordUpstreamOutcome } from "./upstream-faults";
import { isTerminal } from "./state-machine";
import { inWakingTransaction } from "../webhooks/dispatch/wake";
import { inTransaction } from "../db/kysely";

/** The `aud` a wallet puts in its Key Binding JWT for an unsigned DC API request from our page. */
export function walletAudience(): string {
  return `origin:${new URL(publicUrl()).origin}`;
}

interface TSealedWalletState {
  kind: "wallet";
  nonce: string;
  expectedOrigin: string;
}

/** The trust of a session answered by a wallet over the Digital Credentials API; else null. */
async function walletTrustOf(
  v: Pick<Verification, "environment" | "providerId" | "flowType">,
): Promise<TWalletTrustConfig | null> {
  if (
    v.environment !== "production" ||
    v.flowType !== "dc" ||
    findProvider(v.providerId)?.adapters.production !== "wallet"
  )
    return null;
  return connectionSettings(v.environment, v.providerId, "wallet");
}

async function loadWalletSession(
  verificationId: string,
): Promise<{ v: Verification; config: TWalletTrustConfig }> {
  const v = await readVerification(kysely(), verificationId);
  const config = v ? await walletTrustOf(v) : null;
  if (!v || !config) {
    throw new ApiError("RESOURCE_NOT_FOUND", `No wallet request for verification "${verificationId}"`);
  }
  if (isTerminal(v.status))
    throw new ApiError("VERIFICATION_TERMINAL", `Verification "${v.id}" is already ${v.status}`);
  return { v, config };
}

/** The claims to ask the wallet for: the plan's sourceClaims, the catalog's on a broken plan. */
async function claimsToRequest(v: Verification): Promise<string[]> {
  const db = kysely();
  const provider = findProvider(v.providerId)!;
  const [workflow, appProviders] = await Promise.all([
    readWorkflowContent(db, v.workflowId),
    readAppProviderStates(db, v.appId),
  ]);
  if (!workflow) return provider.claims;
  try {
    const plan = planVerification(runnableWorkflow(workflow), {
      providerId: provider.id,
      provider,
      appProviders: Object.fromEntries(
        appProviders.map((p) => [p.providerId, { enabled: p.enabled && p.status === "activated" }]),
      ),
    });
    return plan.sourceClaims;
  } catch (err) {
    // the provider was disabled or the workflow edited since the session started: the
    // session's checks still run at completion, so ask for everything the provider has
    if (err instanceof ApiError) return provider.claims;
    throw err;
  }
}

/** GET /verify/{id}/wallet: the Digital Credentials API request for this session. */
export async function beginWalletPresentation(verificationId: string): Promise<TWalletRequest> {
  const { v, config } = await loadWalletSession(verificationId);
  const nonce = randomBytes(24).toString("base64url");
  const request = buildWalletRequest({ nonce, vct: config.vct, claims: await claimsToRequest(v) });
  const sealed: TSealedWalletState = { kind: "wallet", nonce, expectedOrigin: walletAudience() };
  // the session starts and keeps the request's state: one write
  await inWakingTransaction(kysely(), (tx) => startSession(tx, v.id, encryptSecret(JSON.stringify(sealed))));
  return request;
}

/** POST /verify/{id}/wallet: verifies the wallet's answer and applies the outcome. */
export async function completeWalletPresentation(
  verificationId: string,
  body: unknown,
): Promise<Verification> {
  const { v, config } = await loadWalletSession(verificationId);
  const response = readWalletResponse(body);
  if (!response.ok) throw invalidField(response.field, response.message);
  const state = v.upstreamEncrypted
    ? (JSON.parse(decryptSecret(v.upstreamEncrypted)) as Partial<TSealedWalletState>)
    : undefined;
  if (v.status !== "authenticating" || state?.kind !== "wallet" || !state.nonce || !state.expectedOrigin) {
    throw new ApiError(
      "VERIFICATION_STATE_CONFLICT",
      `Verification "${v.id}" has no wallet request in progress`,
    );
  }
  // one credential query ("pid") with one presentation; several would be several credentials
  const started = performance.now();
  const outcome =
    response.presentations.length === 1
      ? await verifyWalletPresentation(
          config,
          { nonce: state.nonce, audience: state.expectedOrigin },
          response.presentations[0]!,
        )
      : ({
          kind: "failure",
          reason: "invalid_presentation",
          message: "exactly one presentation was expected",
        } as const);
  // the connection's health: a verified presentation counts (an invalid one is the wallet's)
  await recordUpstreamOutcome(v, outcome, performance.now() - started);
  return inTransaction(kysely(), async (tx) => {
    // a newer request (another tab) replaced this nonce while we verified: its answer counts
    const locked = await lockVerification(tx, v.id);
    if (locked.upstreamEncrypted !== v.upstreamEncrypted) {
      throw new ApiError("VERIFICATION_STATE_CONFLICT", `Verification "${v.id}" has a newer wallet request`);
    }
    return applyAdapterOutcome(tx, v.id, outcome);
  });
}
