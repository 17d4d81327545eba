/**
 * withApi's handler step: the route's handler runs in a transaction for state-changing methods
 * (the definition's `transaction` decides otherwise; `false` for a handler whose writes are one
 * statement or that calls the network), else on the pool. Webhook deliveries the transaction
 * queues wake this process's dispatcher once it committed (lib/webhooks/dispatch/wake.ts). With an idempotency
 * record, the response is stored in the handler's own transaction (below 500 only), and a failed
 * handler releases the key so the request can be sent again.
 */
import { config } from "../../config";
import type { Db } from "../../db/kysely";
import { completeIdempotencyKey, releaseIdempotencyKey } from "../../idempotency";
import { inWakingTransaction } from "../../webhooks/dispatch/wake";
import { checkDocumentedResponse, type ApiResult } from "./response";
import type { TApiRoute, THandlerContext } from "./route";

/** Whether the handler runs in a transaction: the definition's choice, else all but GET and HEAD. */
export function transactional(route: TApiRoute, method: string): boolean {
  return route.def.transaction ?? !(method === "GET" || method === "HEAD");
}

/**
 * The handler's result, run as the route asks (see above). Not async: without an idempotency
 * record it is the run's own promise.
 */
export function execute(
  route: TApiRoute,
  ctx: THandlerContext,
  db: Db,
  method: string,
  recordId: string | undefined,
): Promise<ApiResult> {
  const done = transactional(route, method)
    ? inWakingTransaction(db, (tx) => runHandler(route, ctx, tx, recordId))
    : runHandler(route, ctx, db, recordId);
  return recordId === undefined ? done : done.catch((err: unknown) => release(db, recordId, err));
}

async function release(db: Db, recordId: string, err: unknown): Promise<never> {
  await releaseIdempotencyKey(db, recordId).catch(() => undefined);
  throw err;
}

/**
 * One run of the handler on `tx`: its result checked against the definition's documented
 * responses when IDV_VALIDATE_RESPONSES=1, and stored on the idempotency record (if any) when it is
 * not a server error.
 */
export async function runHandler(
  route: TApiRoute,
  ctx: THandlerContext,
  tx: Db,
  recordId?: string,
): Promise<ApiResult> {
  ctx.db = tx;
  const result = await route.handler(ctx);
  if (config().validateResponses) checkDocumentedResponse(route.def, result);
  if (recordId && result.status < 500) {
    await completeIdempotencyKey(tx, recordId, {
      status: result.status,
      headers: result.headers ?? {},
      body: result.body === undefined ? "" : JSON.stringify(result.body),
    });
  }
  return result;
}
