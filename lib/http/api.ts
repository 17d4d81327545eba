/**
 * withApi(): the one wrapper every REST handler goes through, inside the request pipeline
 * (lib/http/pipeline.ts: request id, error mapping, security headers, access log). It is a short
 * list of named steps, each a function of its own in lib/http/steps/ (one file per step, its unit
 * tests beside it), run in this order:
 *   request log → path parameters → environment → authentication → path ids by format → body and
 *   query through zod → sandbox-only routes → Idempotency-Key → the handler (in a transaction for
 *   state-changing methods, the idempotent response stored in the same transaction) → the response
 *   (checked against its documentation in tests).
 * The steps on the path of every request are synchronous or hand back the one promise they start,
 * so the split costs no await and no allocation (the polled status read is measured,
 * docs/benchmarks.md). Handlers return plain data ({status, body, headers}); they never build
 * Responses themselves. An App API endpoint whose handler reads one row named by a path parameter
 * (the polled status read) may have it read in the credential's own statement:
 * `withApi(def, { authWith }, handler)` (one database round trip for authentication and the row,
 * `ctx.authRow`).
 */
import type { z } from "zod";
import type { AppAuth, TAppRowRead } from "../auth/app-credentials";
import type { OperatorAuth } from "../auth/operator-keys";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { kysely, type Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { readJsonBody } from "./body";
import type { AuthKind, EndpointDef, PathParams } from "./endpoint";
import { currentRequestId, otherMethodsOf, pipeline, type THttpMethod } from "./pipeline";
import { admit, authenticate, rowOf } from "./steps/authenticate";
import { environmentOf, refuseOutsideSandbox } from "./steps/environment";
import { execute } from "./steps/handler";
import { claimKey, idempotencyKeyOf, replayResponse } from "./steps/idempotency";
import { carriesBody, NO_BODY, parseBody, parseQuery } from "./steps/input";
import { logPathIds, openRequestLog } from "./steps/request-log";
import { toResponse, type ApiResult } from "./steps/response";
import { pathParams, prepareRoute, type THandlerContext } from "./steps/route";
import { REST } from "./surfaces";
import { checkPathParams } from "./validation";
import { annotateSpan } from "../tracing/spans";

export { json, type ApiResult } from "./steps/response";

type AuthFor<A extends AuthKind> = A extends "workspace"
  ? WorkspaceAuth
  : A extends "app"
    ? AppAuth
    : A extends "operator"
      ? OperatorAuth
      : null;

export interface ApiContext<A, B, Q, P extends string = string> {
  request: Request;
  url: URL;
  requestId: string;
  env: TEnvironment;
  /** the path parameters the definition's path names (checked by format before the handler runs) */
  params: PathParams<P>;
  auth: A;
  body: B;
  query: Q;
  /** the transaction of this request for state-changing methods, else the shared client */
  db: Db;
  /**
   * Names the verification this request concerns in the request log, for requests whose path
   * does not (POST /v1/verifications creates one).
   */
  logVerification: (verificationId: string) => void;
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** The context of an App API handler whose row was read with the credential (`authWith`). */
export interface ApiContextWithRow<B, Q, P extends string, R> extends ApiContext<AppAuth, B, Q, P> {
  /**
   * the row `authWith` read in the credential's statement, once the credential passed every
   * check; null when the statement found none (unknown, or not this app's)
   */
  authRow: R | null;
}

type TTypedHandler = (ctx: never) => Promise<ApiResult>;

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

export function withApi<
  A extends AuthKind,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends string = string,
>(
  options: EndpointDef<A, B, Q, P>,
  handler: (ctx: ApiContext<AuthFor<A>, Infer<B>, Infer<Q>, P>) => Promise<ApiResult>,
): RouteHandler;
/**
 * An App API endpoint whose handler needs the row a path parameter names: `authWith` (a
 * `defineAppRowRead` of the domain) reads it in the credential's own statement, so
 * authentication and the row are one round trip. Same answers as reading it in the handler: the
 * credential's 401/429 first; a parameter that fails the path check never reaches the statement
 * (the credential alone is read, then the usual 404); the handler gets `authRow`.
 */
export function withApi<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends string = string,
  R = never,
>(
  options: EndpointDef<"app", B, Q, P>,
  read: { authWith: TAppRowRead<R, keyof PathParams<P> & string> },
  handler: (ctx: ApiContextWithRow<Infer<B>, Infer<Q>, P, R>) => Promise<ApiResult>,
): RouteHandler;
export function withApi(
  options: EndpointDef,
  second: TTypedHandler | { authWith: TAppRowRead<unknown> },
  third?: TTypedHandler,
): RouteHandler {
  // programming errors throw here, at module load
  const route = prepareRoute(options, second, third);
  return pipeline<RouteContext>(REST, async (request, context, scope) => {
    const { requestId, url, method } = scope;
    annotateSpan({ "http.route": route.def.path }, `${method} ${route.def.path}`);
    const log = openRequestLog(request, scope);
    const params = pathParams(route, await context.params);
    logPathIds(log, params);
    const env = environmentOf(params.env);
    log.environment = env;

    const db = kysely();
    const checking = authenticate(route, db, request, env, params);
    const credentials = checking === null ? null : await checking;
    const auth = credentials === null ? null : admit(route, method, credentials, log);
    // after authentication (401 first), before the handler queries anything
    checkPathParams(params);

    const raw = carriesBody(method) ? await readJsonBody(request) : NO_BODY;
    const body = parseBody(route.def, raw);
    const query = parseQuery(route.def, url);
    refuseOutsideSandbox(route.def, env, method, url);

    const key = idempotencyKeyOf(route.def, request);
    let recordId: string | undefined;
    if (key) {
      const claim = await claimKey(db, key, auth as WorkspaceAuth, env, method, url, raw);
      if (claim.kind === "replay") return replayResponse(claim.response);
      recordId = claim.recordId;
    }

    const ctx: THandlerContext = {
      request,
      url,
      requestId,
      env,
      params,
      auth,
      body,
      query,
      db,
      logVerification: (verificationId) => {
        log.verificationId = verificationId;
      },
    };
    if (route.authWith) ctx.authRow = credentials === null ? undefined : rowOf(credentials);
    return toResponse(await execute(route, ctx, db, method, recordId));
  });
}

/**
 * The methods a REST route file does not implement: 405 METHOD_NOT_ALLOWED in the envelope with
 * `Allow`, and OPTIONS. Each route file ends with
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });`
 */
export function otherMethods<T extends Partial<Record<THttpMethod, unknown>>>(implemented: T) {
  return otherMethodsOf(REST, implemented);
}

/** Route-level 404 in the error envelope (inside a pipeline: with its request id). */
export function routeNotFound(request: Request): Response {
  return REST.error(
    new ApiError("ROUTE_NOT_FOUND", `No route for ${request.method} ${new URL(request.url).pathname}`),
    currentRequestId() ?? newId("req"),
  );
}
