/**
 * Challenge sessions: a verification started with a workspace credential for a scheduled
 * challenge, so the integrator (or a colleague) can take part as an end-user would — the console's
 * "Start challenge session". It is an ordinary session of the app: the verification flow records
 * its participation when it ends and claims a stamp when it succeeded (lib/verifications/outcome.ts).
 * Rules:
 * - only a challenge of the caller's app (404 otherwise, like the report); a completed or expired
 *   challenge takes no new sessions (400 naming challenge_id), since they could not count;
 * - the provider must be one of the test's providers (400 naming providerId); the default is the
 *   first of them, in request order, that discloses claims and is activated and enabled for the
 *   app; createVerification then applies every check of POST /v1/verifications;
 * - match providers are refused: they compare data the integrator's server sends (matchData),
 *   which a session started from the console does not have;
 * - both environments: in the sandbox the session runs on the simulator (a rehearsal), in
 *   production on the real provider;
 * - audited as production_test.session_started in the same transaction.
 */
import type { z } from "zod";
import { getOwnedApp } from "../apps/service";
import { recordAudit, workspaceAudit } from "../audit";
import type { WorkspaceActor } from "../auth/actor";
import type { AppAuth } from "../auth/app-credentials";
import type { Db } from "../db/client";
import { ApiError, invalidField } from "../errors";
import { findProvider } from "../providers/catalog";
import { createVerification } from "../verifications/create";
import { hostedPageUrl } from "../verifications/read";
import type { ZChallengeSessionJson } from "./endpoints";
import type { TStartChallengeSession } from "./schema";
import { readPayload } from "./serialize";
import { challengeNotFound } from "./service";
import { isChallengeActive } from "./state-machine";
import { readAppChallenge } from "./store/challenges";

export type TChallengeSession = z.infer<typeof ZChallengeSessionJson>;

function providerNotAvailable(message: string): ApiError {
  return new ApiError("PROVIDER_NOT_AVAILABLE", `providerId: ${message}`, {
    details: [{ path: "providerId", message }],
  });
}

export async function startChallengeSession(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  challengeId: string,
  input: TStartChallengeSession,
  now: Date = new Date(),
): Promise<TChallengeSession> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const challenge = await readAppChallenge(db, app.id, challengeId);
  if (!challenge) throw challengeNotFound(challengeId);
  if (!isChallengeActive(challenge, now)) {
    throw invalidField(
      "challenge_id",
      challenge.completedAt
        ? "has ended: every stamp was claimed, so a new session could not count"
        : "has expired, so a new session could not count",
    );
  }

  const testProviders = readPayload(challenge.request).providerIds;
  const usable = (id: string) => {
    const appProvider = app.providers.find((p) => p.providerId === id);
    return appProvider?.status === "activated" && appProvider.enabled;
  };
  let providerId = input?.providerId;
  if (providerId !== undefined) {
    if (!testProviders.includes(providerId)) {
      throw invalidField("providerId", `must be one of this test's providers: ${testProviders.join(", ")}`);
    }
    if (findProvider(providerId)?.verificationModel === "match") {
      throw providerNotAvailable(
        `"${providerId}" is a match provider: it compares data your server sends, so start its sessions through the App API with matchData`,
      );
    }
  } else {
    providerId = testProviders.find(
      (id) => findProvider(id)?.verificationModel === "disclosure" && usable(id),
    );
    if (!providerId) {
      throw providerNotAvailable(
        "none of this test's providers discloses claims and is enabled for the app; enable one or name it",
      );
    }
  }

  const appAuth: AppAuth = {
    kind: "app",
    clientId: app.id,
    workspaceId: app.workspaceId,
    environment: app.environment,
  };
  const created = await createVerification(db, appAuth, { providerId, challengeId: challenge.id });
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "production_test.session_started",
    targetType: "verification",
    targetId: created.verificationId,
    data: { clientId: app.id, challengeId: challenge.id, providerId },
  });
  const { url, ...record } = created;
  return { ...record, url: url ?? hostedPageUrl(created.verificationId), challengeId: challenge.id };
}
