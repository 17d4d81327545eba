/**
 * A production-test request's page for operators: the request (as the Operator API's list shows
 * it), its workspace, and once scheduled its challenge's figures and participations.
 * Rules: the request lookup, the item shape and the report figures are lib/production-tests'
 * own (404 for other-environment requests, deleted apps and unknown ids); participations are
 * paginated newest first, since a campaign may have up to 100 000 stamps.
 */
import type { Db } from "../db/client";
import { ApiError } from "../errors";
import type { TEnvironment } from "../environments";
import { page } from "../http/pagination";
import { findProvider } from "../providers/catalog";
import { readPayload, toOperatorItemJson } from "../production-tests/serialize";
import { challengeStats, loadRequestForOperator } from "../production-tests/service";
import { pageParticipations } from "../production-tests/store/challenges";
import { readWorkspaceName } from "../team/store/members";
import type { TProductionTestDetailJson, TProductionTestDetailQuery } from "./endpoints";

export async function getProductionTestForOperator(
  db: Db,
  env: TEnvironment,
  requestId: string,
  query: TProductionTestDetailQuery,
): Promise<TProductionTestDetailJson> {
  const row = await loadRequestForOperator(db, env, requestId);
  const workspaceName = await readWorkspaceName(db, row.app.workspaceId);
  // a missing row answers 404 RESOURCE_NOT_FOUND
  if (workspaceName === undefined) throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
  const challenge = row.challenge;
  let stats: TProductionTestDetailJson["stats"] = null;
  let participations = page<TProductionTestDetailJson["participations"]["data"][number]>(
    [],
    0,
    query.limit,
    query.offset,
  );
  if (challenge) {
    const [figures, { total, rows }] = await Promise.all([
      challengeStats(db, challenge.id, readPayload(row).providerIds),
      pageParticipations(db, challenge.id, query),
    ]);
    stats = figures;
    participations = page(
      rows.map((p) => ({
        id: p.id,
        verificationId: p.verificationId,
        providerId: p.providerId,
        providerName: findProvider(p.providerId)?.name ?? p.providerId,
        successful: p.successful,
        claimed: p.claimed,
        createdAt: p.createdAt.toISOString(),
      })),
      total,
      query.limit,
      query.offset,
    );
  }
  return {
    ...toOperatorItemJson(row),
    workspace: { workspaceId: row.app.workspaceId, name: workspaceName },
    stats,
    participations,
  };
}
