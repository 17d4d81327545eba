/**
 * A production-test request's page for operators: the request (as the Operator API's list shows
 * it), its workspace, and once scheduled its challenge's figures and participations.
 * Rules: the request lookup, the item shape and the report figures are lib/production-tests'
 * own (404 for other-environment requests, deleted apps and unknown ids); participations are
 * paginated newest first, since a campaign may have up to 100 000 stamps.
 */
import type { Tx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TEnvironment } from "../environments";
import { page } from "../http/pagination";
import { findProvider } from "../providers/catalog";
import { readPayload, toOperatorItemJson } from "../production-tests/serialize";
import { challengeStats, loadRequestForOperator } from "../production-tests/service";
import type { TProductionTestDetailJson, TProductionTestDetailQuery } from "./endpoints";

export async function getProductionTestForOperator(
  db: Tx,
  env: TEnvironment,
  requestId: string,
  query: TProductionTestDetailQuery,
): Promise<TProductionTestDetailJson> {
  const row = await loadRequestForOperator(db, env, requestId);
  const workspace = await db.workspace.findUniqueOrThrow({
    where: { id: row.app.workspaceId },
    select: { id: true, name: true },
  });
  const challenge = row.challenge;
  let stats: TProductionTestDetailJson["stats"] = null;
  let participations = page<TProductionTestDetailJson["participations"]["data"][number]>(
    [],
    0,
    query.limit,
    query.offset,
  );
  if (challenge) {
    const where: Prisma.ProductionTestParticipationWhereInput = {
      challengeId: challenge.id,
      ...(query.claimed === undefined ? {} : { claimed: query.claimed }),
    };
    const [figures, total, rows] = await Promise.all([
      challengeStats(db, challenge.id, readPayload(row).providerIds),
      db.productionTestParticipation.count({ where }),
      db.productionTestParticipation.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: query.limit,
        skip: query.offset,
      }),
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
    workspace: { workspaceId: workspace.id, name: workspace.name },
    stats,
    participations,
  };
}
