/**
 * Production tests: an integrator asks for a live test of an app's providers in front of real
 * end-users; an operator schedules it (creating the challenge) or fails it.
 * Rules:
 * - requests belong to an app the caller owns (403 another workspace's, 404 unknown, deleted or
 *   other-environment apps); operators act only on requests of the URL's environment;
 * - every requested provider must be in the catalog (VALIDATION_ERROR) and activated for the app
 *   (PROVIDER_NOT_AVAILABLE), each error naming `providerIds[i]`; duplicates collapse;
 * - moves follow the table in ./state.ts, guarded by a conditional update so two operators
 *   racing on one request cannot both win (the loser sees the current status);
 * - a challenge expires in the future (default 14 days, at most 365) and takes its title from
 *   the request;
 * - the report counts with one grouped query, so its numbers are one consistent snapshot;
 * - every change writes an audit record in the same transaction.
 */
import { getOwnedApp } from "../apps/service";
import { operatorAudit, recordAudit, workspaceAudit } from "../audit";
import type { OperatorActor, WorkspaceActor } from "../auth/actor";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { ApiError, invalidField, notFound, type ErrorCode } from "../errors";
import { page, type TPage } from "../http/pagination";
import { newId } from "../ids";
import { findProvider } from "../providers/catalog";
import {
  DEFAULT_CHALLENGE_DAYS,
  MAX_CHALLENGE_DAYS,
  type TCreateProductionTest,
  type TFailProductionTest,
  type TOperatorListQuery,
  type TProductionTestPayload,
  type TScheduleProductionTest,
} from "./schema";
import {
  buildProviderBreakdown,
  readPayload,
  toItemJson,
  toOperatorItemJson,
  type TOperatorItemJson,
  type TProductionTestItemJson,
  type TReportJson,
  toChallengeJson,
} from "./serialize";
import { canTransition, transition } from "../state-machine";
import { REQUEST_TRANSITIONS, type TRequestAction } from "./state-machine";
import { countParticipationGroups, insertChallenge, readAppChallenge } from "./store/challenges";
import {
  activatedProviderIds,
  countOperatorRequests,
  insertRequest,
  listAppRequests,
  listOperatorRequests,
  moveRequestStatus,
  readOperatorRequest,
  readRequestStatus,
  type TOperatorRequestRow,
} from "./store/requests";

const DAY_MS = 24 * 60 * 60 * 1000;

// A move out of a final state is refused like the spec's other state conflicts (cancelling a
// terminal verification, configuring an existing custom domain): 400 with the current status in
// the message. A dedicated code (PRODUCTION_TEST_NOT_PENDING) is proposed for lib/errors/index.ts.
const NOT_PENDING_CODE: ErrorCode = "PRODUCTION_TEST_NOT_PENDING";

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

export async function createProductionTest(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  input: TCreateProductionTest,
): Promise<TProductionTestItemJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);

  input.providerIds.forEach((id, i) => {
    if (!findProvider(id)) throw invalidField(`providerIds[${i}]`, `unknown provider "${id}"`);
  });
  const activated = new Set(await activatedProviderIds(db, app.id, input.providerIds));
  input.providerIds.forEach((id, i) => {
    if (!activated.has(id)) {
      throw invalidField(
        `providerIds[${i}]`,
        `provider "${id}" is not activated for this app; activate it first`,
        "PROVIDER_NOT_AVAILABLE",
      );
    }
  });

  const payload: TProductionTestPayload = {
    title: input.title,
    providerIds: [...new Set(input.providerIds)],
    maxStampClaims: input.maxStampClaims,
    targetPlatform: input.targetPlatform ?? null,
  };
  const row = await insertRequest(db, {
    id: newId("ptr"),
    appId: app.id,
    workspaceId: app.workspaceId,
    payload,
  });
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "production_test.requested",
    targetType: "production_test_request",
    targetId: row.id,
    data: { clientId: app.id, ...payload },
  });
  return toItemJson(row);
}

/** Every request of the app, newest first; scheduled ones appear as challenges. */
export async function listProductionTests(
  db: Db,
  auth: WorkspaceAuth,
  clientId: string,
): Promise<TProductionTestItemJson[]> {
  const app = await getOwnedApp(db, auth, clientId);
  const rows = await listAppRequests(db, app.id);
  const now = new Date();
  return rows.map((r) => toItemJson(r, now));
}

/** 404 for a challenge id the app does not have; a request id gets a hint to use the challenge's. */
export function challengeNotFound(challengeId: string): ApiError {
  if (challengeId.startsWith("ptr_")) {
    return new ApiError(
      "RESOURCE_NOT_FOUND",
      `Production test challenge "${challengeId}" not found: use the id inside the challenge object, not the request id (a pending request has no report yet)`,
    );
  }
  return notFound(`Production test challenge "${challengeId}"`);
}

export async function getProductionTestReport(
  db: Db,
  auth: WorkspaceAuth,
  clientId: string,
  challengeId: string,
): Promise<TReportJson> {
  const app = await getOwnedApp(db, auth, clientId);
  const challenge = await readAppChallenge(db, app.id, challengeId);
  if (!challenge) throw challengeNotFound(challengeId);
  return {
    challenge: toChallengeJson(challenge),
    stats: await challengeStats(db, challenge.id, readPayload(challenge.request).providerIds),
  };
}

/** A challenge's report figures, from one grouped query (one consistent snapshot). */
export async function challengeStats(
  db: Db,
  challengeId: string,
  providerIds: readonly string[],
): Promise<TReportJson["stats"]> {
  const groups = await countParticipationGroups(db, challengeId);
  let totalParticipations = 0;
  let totalClaims = 0;
  const claimCounts = new Map<string, number>();
  for (const g of groups) {
    totalParticipations += g.count;
    if (g.claimed) {
      totalClaims += g.count;
      claimCounts.set(g.providerId, (claimCounts.get(g.providerId) ?? 0) + g.count);
    }
  }
  return {
    totalParticipations,
    totalClaims,
    providerBreakdown: buildProviderBreakdown(providerIds, claimCounts),
  };
}

// ---------------------------------------------------------------------------------------------
// Operator API

/** A request of the URL's environment, app not deleted, with its challenge and app; else 404. */
export async function loadRequestForOperator(
  db: Db,
  env: TEnvironment,
  requestId: string,
): Promise<TOperatorRequestRow> {
  const row = await readOperatorRequest(db, requestId);
  // requests of deleted apps or of the other environment do not exist for this URL
  if (!row || row.app.environment !== env || row.app.deletedAt !== null) {
    throw notFound(`Production test request "${requestId}"`);
  }
  return row;
}

function notPending(requestId: string, status: string, action: TRequestAction): ApiError {
  const verb = action === "schedule" ? "scheduled" : "failed";
  return new ApiError(
    NOT_PENDING_CODE,
    `Production test request "${requestId}" is ${status}; only pending requests can be ${verb}`,
    { details: [{ path: "request_id", message: `is ${status}, not pending` }] },
  );
}

/**
 * Moves the request along the state table, but only if it is still in the status we read: the
 * UPDATE … WHERE status = <read status> waits for a concurrent mover's commit and then matches
 * nothing, so of two operators racing on one request exactly one wins.
 */
async function moveRequest(
  db: Db,
  request: { id: string; status: string },
  action: TRequestAction,
  data: { failureReason?: string } = {},
): Promise<void> {
  const next = transition(REQUEST_TRANSITIONS, request.status, action, (status) =>
    notPending(request.id, status, action),
  );
  const moved = await moveRequestStatus(db, request.id, request.status, { status: next, ...data });
  if (!moved) {
    const current = await readRequestStatus(db, request.id);
    if (current === undefined) throw missingRow();
    throw notPending(request.id, current, action);
  }
}

export async function scheduleProductionTest(
  db: Db,
  actor: OperatorActor,
  requestId: string,
  input: TScheduleProductionTest,
  now: Date = new Date(),
): Promise<TOperatorItemJson> {
  const row = await loadRequestForOperator(db, actor.env, requestId);
  if (!canTransition(REQUEST_TRANSITIONS, row.status, "schedule")) {
    throw notPending(requestId, row.status, "schedule");
  }

  const expiresAt = input?.expiresAt
    ? new Date(input.expiresAt)
    : new Date(now.getTime() + DEFAULT_CHALLENGE_DAYS * DAY_MS);
  if (expiresAt.getTime() <= now.getTime()) throw invalidField("expiresAt", "must be in the future");
  if (expiresAt.getTime() > now.getTime() + MAX_CHALLENGE_DAYS * DAY_MS) {
    throw invalidField("expiresAt", `must be at most ${MAX_CHALLENGE_DAYS} days ahead`);
  }

  await moveRequest(db, row, "schedule");
  const challenge = await insertChallenge(db, {
    id: newId("chl"),
    requestId,
    appId: row.appId,
    title: readPayload(row).title,
    description: input?.description ? input.description : null,
    challengeMode: "stamp",
    sponsor: input?.sponsor ?? null,
    sources: input?.sources ?? null,
    expiresAt,
  });
  await recordAudit(db, {
    workspaceId: row.workspaceId,
    environment: actor.env,
    ...operatorAudit(actor),
    action: "production_test.scheduled",
    targetType: "production_test_request",
    targetId: requestId,
    data: {
      clientId: row.appId,
      challengeId: challenge.id,
      expiresAt: expiresAt.toISOString(),
      keyId: actor.auth.keyId,
    },
  });
  return toOperatorItemJson({ ...row, status: "scheduled", challenge }, now);
}

export async function failProductionTest(
  db: Db,
  actor: OperatorActor,
  requestId: string,
  input: TFailProductionTest,
): Promise<TOperatorItemJson> {
  const row = await loadRequestForOperator(db, actor.env, requestId);
  await moveRequest(db, row, "fail", { failureReason: input.reason });
  await recordAudit(db, {
    workspaceId: row.workspaceId,
    environment: actor.env,
    ...operatorAudit(actor),
    action: "production_test.failed",
    targetType: "production_test_request",
    targetId: requestId,
    data: { clientId: row.appId, reason: input.reason, keyId: actor.auth.keyId },
  });
  return toOperatorItemJson({ ...row, status: "failed", failureReason: input.reason });
}

/**
 * The operators' queue: requests of one status in the URL's environment, apps not deleted.
 * Pending requests oldest first (first come, first served); scheduled and failed newest first.
 */
export async function listProductionTestsForOperator(
  db: Db,
  env: TEnvironment,
  { status, clientId, limit, offset }: TOperatorListQuery,
): Promise<TPage<TOperatorItemJson>> {
  const filter = { status, environment: env, clientId: clientId ? clientId : null };
  const dir = status === "pending" ? "asc" : "desc";
  const [total, rows] = await Promise.all([
    countOperatorRequests(db, filter),
    listOperatorRequests(db, { ...filter, limit, offset }, dir),
  ]);
  const now = new Date();
  return page(
    rows.map((r) => toOperatorItemJson(r, now)),
    total,
    limit,
    offset,
  );
}
