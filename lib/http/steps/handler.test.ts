/**
 * withApi's handler step: where the handler runs (a transaction or the shared client), what the
 * idempotency record gets, what a failure releases, and the documentation check in tests.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Db } from "../../db/client";
import { completeIdempotencyKey, releaseIdempotencyKey } from "../../idempotency";
import type { EndpointDef } from "../endpoint";
import { execute, transactional } from "./handler";
import { json, type ApiResult } from "./response";
import { prepareRoute, type THandlerContext } from "./route";

vi.mock("../../idempotency", () => ({ completeIdempotencyKey: vi.fn(), releaseIdempotencyKey: vi.fn() }));

const TX = { name: "tx" } as unknown as Db;

/** The pool's handle as the handler step sees it: `transaction().execute` runs on TX. */
function fakeDb() {
  const execute = vi.fn((run: (tx: Db) => Promise<unknown>) => run(TX));
  const db = { name: "client", isTransaction: false, transaction: () => ({ execute }) };
  return Object.assign(db as unknown as Db, { opened: execute });
}

const def = (over: Partial<EndpointDef> = {}): EndpointDef => ({
  method: "POST",
  path: "/v1/things",
  operationId: "createThing",
  summary: "",
  tag: "",
  auth: "workspace",
  responses: { 201: { description: "", schema: z.object({ id: z.string() }) } },
  ...over,
});

function setup(over: Partial<EndpointDef>, answer: (ctx: THandlerContext) => Promise<ApiResult>) {
  const seen: Db[] = [];
  const route = prepareRoute(def(over), async (ctx: never) => {
    seen.push((ctx as THandlerContext).db);
    return answer(ctx);
  });
  const db = fakeDb();
  const ctx = { db } as unknown as THandlerContext;
  return { route, db, ctx, seen };
}

const validate = process.env.IDV_VALIDATE_RESPONSES;
beforeEach(() => {
  vi.mocked(completeIdempotencyKey).mockReset().mockResolvedValue(undefined);
  vi.mocked(releaseIdempotencyKey).mockReset().mockResolvedValue(undefined);
});
afterEach(() => {
  if (validate === undefined) delete process.env.IDV_VALIDATE_RESPONSES;
  else process.env.IDV_VALIDATE_RESPONSES = validate;
});

describe("transactional", () => {
  it("is the definition's choice, else every method but GET and HEAD", () => {
    const route = (over: Partial<EndpointDef>) => prepareRoute(def(over), async () => json(200));
    expect(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].map((m) => transactional(route({}), m))).toEqual(
      [false, false, true, true, true, true],
    );
    expect(transactional(route({ transaction: false }), "POST")).toBe(false);
    expect(transactional(route({ transaction: true }), "GET")).toBe(true);
  });
});

describe("execute", () => {
  it("runs a write in a transaction, the handler on it", async () => {
    const { route, db, ctx, seen } = setup({}, async () => json(201, { id: "t" }));
    expect(await execute(route, ctx, db, "POST", undefined)).toEqual(json(201, { id: "t" }));
    expect(db.opened).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([TX]);
  });

  it("runs a read, or a route with `transaction: false`, on the shared client", async () => {
    for (const [over, method] of [
      [{}, "GET"],
      [{ transaction: false }, "POST"],
    ] as const) {
      const { route, db, ctx, seen } = setup(over, async () => json(201, { id: "t" }));
      await execute(route, ctx, db, method, undefined);
      expect(db.opened).not.toHaveBeenCalled();
      expect(seen).toEqual([db]);
    }
  });

  it("stores the response on the idempotency record in the handler's transaction, below 500 only", async () => {
    const { route, db, ctx } = setup({}, async () => json(201, { id: "t" }, { Location: "/v1/things/t" }));
    await execute(route, ctx, db, "POST", "idm_1");
    expect(completeIdempotencyKey).toHaveBeenCalledWith(TX, "idm_1", {
      status: 201,
      headers: { Location: "/v1/things/t" },
      body: '{"id":"t"}',
    });
    const empty = setup({ responses: { 204: { description: "" } } }, async () => json(204));
    await execute(empty.route, empty.ctx, empty.db, "POST", "idm_2");
    expect(completeIdempotencyKey).toHaveBeenLastCalledWith(TX, "idm_2", {
      status: 204,
      headers: {},
      body: "",
    });
    const failed = setup({ responses: { 503: { description: "" } } }, async () => json(503, {}));
    await execute(failed.route, failed.ctx, failed.db, "POST", "idm_3");
    expect(completeIdempotencyKey).toHaveBeenCalledTimes(2);
  });

  it("releases the key when the handler fails, and fails with the handler's error", async () => {
    const boom = new Error("boom");
    const { route, db, ctx } = setup({}, async () => {
      throw boom;
    });
    await expect(execute(route, ctx, db, "POST", "idm_1")).rejects.toBe(boom);
    expect(releaseIdempotencyKey).toHaveBeenCalledWith(db, "idm_1");
    vi.mocked(releaseIdempotencyKey).mockRejectedValueOnce(new Error("database gone"));
    await expect(execute(route, ctx, db, "POST", "idm_2")).rejects.toBe(boom);
  });

  it("releases nothing without a record", async () => {
    const { route, db, ctx } = setup({}, async () => {
      throw new Error("boom");
    });
    await expect(execute(route, ctx, db, "POST", undefined)).rejects.toThrow("boom");
    expect(releaseIdempotencyKey).not.toHaveBeenCalled();
  });

  it("with IDV_VALIDATE_RESPONSES=1, fails a response its definition does not document", async () => {
    const { route, db, ctx } = setup({}, async () => json(200, { id: "t" }));
    process.env.IDV_VALIDATE_RESPONSES = "0";
    expect((await execute(route, ctx, db, "POST", undefined)).status).toBe(200);
    process.env.IDV_VALIDATE_RESPONSES = "1";
    await expect(execute(route, ctx, db, "POST", "idm_1")).rejects.toThrow(
      "createThing: status 200 is not documented",
    );
    expect(completeIdempotencyKey).not.toHaveBeenCalled();
    expect(releaseIdempotencyKey).toHaveBeenCalledWith(db, "idm_1");
  });
});
