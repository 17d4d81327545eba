/**
 * withApi(): the one wrapper every REST handler goes through. In order it does
 * request id → environment → authentication → body (1 MB, JSON) → zod parsing → idempotency →
 * the handler (inside a transaction for state-changing methods, with the stored idempotent
 * response written in the same transaction) → the request log entry. It runs inside the request
 * pipeline (lib/http/pipeline.ts: request id, error mapping, security headers, access log).
 * Handlers return plain data ({status, body, headers}); they never build Responses themselves.
 * An App API endpoint whose handler reads one row named by a path parameter (the polled status
 * read) may have it read in the credential's own statement: `withApi(def, { authWith }, handler)`
 * (one database round trip for authentication and the row, `ctx.authRow`).
 */
import { z } from "zod";
import {
  authenticateApp,
  authenticateAppWith,
  type AppAuth,
  type TAppRowRead,
} from "../auth/app-credentials";
import { authenticateOperator, type OperatorAuth } from "../auth/operator-keys";
import {
  checkSameOrigin,
  hasSessionCookie,
  readSessionCookie,
  resolveSessionMember,
  resolveSessionOperator,
} from "../auth/console-session";
import { can, PERMISSION_LABEL, type TPermission } from "../auth/roles";
import { authenticateWorkspace, type WorkspaceAuth } from "../auth/workspace-keys";
import { config } from "../config";
import { getDb, type Tx } from "../db/client";
import { parseEnvironment, type TEnvironment } from "../environments";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  hashRequestBody,
  releaseIdempotencyKey,
  validateIdempotencyKey,
} from "../idempotency";
import { newId } from "../ids";
import { clientIp } from "../rate-limit";
import { appendRequestLog, type RequestLogEntry } from "../request-log/writer";
import { readJsonBody } from "./body";
import { BufferedResponse } from "./buffered-response";
import { pathParamNames, type EndpointDef, type PathParams } from "./endpoint";
import { ApiError } from "../errors";
import { currentRequestId, otherMethodsOf, pipeline, type THttpMethod } from "./pipeline";
import { REST } from "./surfaces";
import { isSafeText } from "./safe-text";
import { checkPathParams, isValidPathParam, parseWith } from "./validation";

export type AuthKind = "workspace" | "app" | "operator" | "none";
type AuthFor<A extends AuthKind> = A extends "workspace"
  ? WorkspaceAuth
  : A extends "app"
    ? AppAuth
    : A extends "operator"
      ? OperatorAuth
      : null;

export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

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
  db: Tx;
  /**
   * Names the verification this request concerns in the request log, for requests whose path
   * does not (POST /v1/verifications creates one).
   */
  logVerification: (verificationId: string) => void;
}

export interface ApiOptions<
  A extends AuthKind,
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
> {
  auth: A;
  body?: B;
  query?: Q;
  /** honour Idempotency-Key (workspace auth only) */
  idempotent?: boolean;
  /** run the handler in a transaction; default true except for GET/HEAD */
  transaction?: boolean;
  /** workspace auth: what the caller's role must allow (lib/auth/roles.ts); default read for GET, else write */
  permission?: TPermission;
  /**
   * a sandbox test helper: in production the route does not exist (404 ROUTE_NOT_FOUND, answered
   * after authentication and request parsing, before the handler runs)
   */
  sandboxOnly?: boolean;
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

/**
 * What the wrapper hands a handler, whichever overload typed it (the overloads tie the context to
 * the definition; the implementation builds it from the parsed request).
 */
type TAnyContext = ApiContext<unknown, unknown, unknown> & { authRow?: unknown };
type TAnyHandler = (ctx: TAnyContext) => Promise<ApiResult>;
type TTypedHandler = (ctx: never) => Promise<ApiResult>;

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

const BASE_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

// Tests set IDV_VALIDATE_RESPONSES=1 (config().validateResponses): every success response must be
// documented on its endpoint definition and match the documented schema, so the OpenAPI document
// cannot drift from reality.

function checkDocumentedResponse(options: object, result: ApiResult): void {
  const responses = (options as { responses?: Record<number, { schema?: z.ZodType }> }).responses;
  const operation = (options as { operationId?: string }).operationId ?? "(undocumented endpoint)";
  if (!responses)
    throw new Error(`${operation}: the route has no endpoint definition with documented responses`);
  const doc = responses[result.status];
  if (!doc) throw new Error(`${operation}: status ${result.status} is not documented`);
  if (doc.schema) {
    const parsed = doc.schema.safeParse(result.body);
    if (!parsed.success) {
      throw new Error(
        `${operation}: the ${result.status} body does not match its documented schema: ${parsed.error.message}`,
      );
    }
  }
}

export function json(status: number, body?: unknown, headers?: Record<string, string>): ApiResult {
  return { status, body, headers };
}

function toResponse(result: ApiResult): Response {
  if (result.status === 204 || result.body === undefined) {
    return new Response(null, {
      status: result.status,
      headers: { "Cache-Control": "no-store", ...result.headers },
    });
  }
  return new BufferedResponse(JSON.stringify(result.body), {
    status: result.status,
    headers: { ...BASE_HEADERS, ...result.headers },
  });
}

function flattenParams(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string") out[k] = v;
  return out;
}

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
  const paramNames = pathParamNames(options.path);
  const authWith = typeof second === "function" ? undefined : second.authWith;
  const typed = typeof second === "function" ? second : third;
  // programming errors, at module load
  if (!typed) throw new Error(`${options.operationId}: withApi without a handler`);
  const handler = typed as TAnyHandler;
  if (authWith && (options.auth !== "app" || !paramNames.includes(authWith.param)))
    throw new Error(
      `${options.operationId}: authWith needs app auth and the path parameter "${authWith.param}"`,
    );
  return pipeline<RouteContext>(REST, async (request, context, scope) => {
    const { requestId, url } = scope;
    const logEntry: Partial<RequestLogEntry> = {};
    scope.onDone(({ status, errorCode, ms }) => {
      if (!logEntry.environment) return;
      appendRequestLog(getDb, {
        id: requestId,
        workspaceId: logEntry.workspaceId ?? null,
        environment: logEntry.environment,
        method: request.method,
        path: url.pathname,
        status,
        durationMs: ms,
        errorCode,
        credentialType: logEntry.credentialType ?? "none",
        credentialId: logEntry.credentialId ?? null,
        credentialName: logEntry.credentialName ?? null,
        appId: logEntry.appId ?? null,
        verificationId: logEntry.verificationId ?? null,
        createdAt: new Date(),
      });
    });
    const params = flattenParams(await context.params);
    for (const name of paramNames) {
      // the route directory and the definition's path disagree: a programming error
      if (params[name] === undefined) throw new Error(`${options.operationId}: no path parameter "${name}"`);
    }
    // the ids the path names, as typed, unless the log could not store them (a NUL fails the
    // whole batch of rows) or they are absurdly long
    const loggable = (v: string | undefined) => (v && v.length <= 64 && isSafeText(v) ? v : undefined);
    logEntry.appId = loggable(params.clientId);
    logEntry.verificationId = loggable(params.verificationId);
    const env = parseEnvironment(params.env);
    logEntry.environment = env;
    if (!env)
      throw new ApiError("ROUTE_NOT_FOUND", `No such environment "${params.env}". Use sandbox or production`);

    const db = getDb();
    const authorization = request.headers.get("authorization");
    const method = request.method.toUpperCase();
    let auth: unknown = null;
    let authRow: unknown = undefined;
    if (options.auth === "workspace") {
      const workspace = await authenticateWorkspaceOrSession(db, request, authorization, env);
      authorizeRole(
        workspace,
        options.permission ?? (method === "GET" || method === "HEAD" ? "read" : "write"),
      );
      auth = workspace;
      logCredential(logEntry, workspace);
    } else if (options.auth === "app") {
      const ip = clientIp(request.headers);
      const rowId = authWith ? params[authWith.param] : undefined;
      let app: AppAuth;
      if (authWith && rowId !== undefined && isValidPathParam(authWith.param, rowId)) {
        const read = await authenticateAppWith(db, authorization, env, ip, authWith, rowId);
        app = read.auth;
        authRow = read.row;
      } else {
        app = await authenticateApp(db, authorization, env, ip);
      }
      auth = app;
      Object.assign(logEntry, {
        workspaceId: app.workspaceId,
        credentialType: "app",
        credentialId: app.clientId,
        appId: app.clientId,
      });
    } else if (options.auth === "operator") {
      const operator = await authenticateOperatorOrSession(db, request, authorization);
      auth = operator;
      Object.assign(logEntry, { credentialType: "operator", credentialId: operator.userId });
    }

    // after authentication (401 first), before the handler queries anything
    checkPathParams(params);

    const hasBody = !(method === "GET" || method === "HEAD" || method === "DELETE");
    const raw = hasBody ? await readJsonBody(request) : { text: "", json: undefined };
    if (
      !options.body &&
      raw.json !== undefined &&
      !(typeof raw.json === "object" && raw.json !== null && Object.keys(raw.json).length === 0)
    ) {
      throw new ApiError("VALIDATION_ERROR", "This endpoint takes no request body", {
        details: [{ path: "(body)", message: "must be empty" }],
      });
    }
    const body = options.body ? parseWith(options.body, raw.json, "Invalid request body") : undefined;
    const query = options.query
      ? parseWith(options.query, Object.fromEntries(url.searchParams.entries()), "Invalid query parameters")
      : undefined;
    if (options.sandboxOnly && env !== "sandbox") {
      throw new ApiError("ROUTE_NOT_FOUND", `No route for ${method} ${url.pathname}`);
    }

    const idempotencyKey =
      options.idempotent && options.auth === "workspace"
        ? validateIdempotencyKey(request.headers.get("idempotency-key"))
        : undefined;
    const workspaceAuth = auth as WorkspaceAuth;

    const run = async (tx: Tx, recordId?: string): Promise<ApiResult> => {
      const result = await handler({
        request,
        url,
        requestId,
        env,
        params,
        auth,
        body,
        query,
        db: tx,
        logVerification: (verificationId) => {
          logEntry.verificationId = verificationId;
        },
        ...(authWith ? { authRow } : {}),
      });
      if (config().validateResponses) checkDocumentedResponse(options, result);
      if (recordId && result.status < 500) {
        await completeIdempotencyKey(tx, recordId, {
          status: result.status,
          headers: result.headers ?? {},
          body: result.body === undefined ? "" : JSON.stringify(result.body),
        });
      }
      return result;
    };

    let recordId: string | undefined;
    if (idempotencyKey) {
      const claim = await claimIdempotencyKey(db, {
        workspaceId: workspaceAuth.workspaceId,
        environment: env,
        key: idempotencyKey,
        method,
        path: url.pathname,
        requestHash: hashRequestBody(raw.json),
      });
      if (claim.kind === "replay") {
        return new Response(claim.response.body === "" ? null : claim.response.body, {
          status: claim.response.status,
          headers: {
            ...(claim.response.body === "" ? {} : BASE_HEADERS),
            ...claim.response.headers,
            "Idempotency-Replayed": "true",
          },
        });
      }
      recordId = claim.recordId;
    }

    const transactional = options.transaction ?? !(method === "GET" || method === "HEAD");
    let result: ApiResult;
    try {
      result = transactional
        ? await db.$transaction((tx) => run(tx, recordId), { timeout: 15_000, maxWait: 10_000 })
        : await run(db, recordId);
    } catch (err) {
      if (recordId) await releaseIdempotencyKey(db, recordId).catch(() => undefined);
      throw err;
    }
    return toResponse(result);
  });
}

/**
 * A workspace credential: the Authorization header when one is sent (API keys), else the
 * console session cookie (with the CSRF check on writes), else the API key's 401.
 */
async function authenticateWorkspaceOrSession(
  db: Tx,
  request: Request,
  authorization: string | null,
  env: TEnvironment,
): Promise<WorkspaceAuth> {
  const cookies = request.headers.get("cookie");
  if (authorization !== null || !hasSessionCookie(cookies)) {
    return authenticateWorkspace(db, authorization, env, clientIp(request.headers));
  }
  const claims = await readSessionCookie(cookies);
  if (!claims) throw new ApiError("INVALID_SESSION", "Your console session has ended. Sign in again");
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") checkSameOrigin(request);
  const member = await resolveSessionMember(db, claims, request.headers.get("x-workspace-id"));
  return {
    kind: "workspace",
    workspaceId: member.workspaceId,
    environment: env,
    role: member.role,
    actor: { type: "user", id: member.userId, name: member.name ?? member.email },
  };
}

/**
 * An operator credential: the Authorization header when one is sent (operator keys), else an
 * operator's session cookie (CSRF check on writes), else the operator key's 401. A session of
 * anyone but an operator is 403.
 */
async function authenticateOperatorOrSession(
  db: Tx,
  request: Request,
  authorization: string | null,
): Promise<OperatorAuth> {
  const cookies = request.headers.get("cookie");
  if (authorization !== null || !hasSessionCookie(cookies)) {
    return authenticateOperator(db, authorization, clientIp(request.headers));
  }
  const claims = await readSessionCookie(cookies);
  if (!claims) throw new ApiError("INVALID_SESSION", "Your session has ended. Sign in again");
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") checkSameOrigin(request);
  const operator = await resolveSessionOperator(db, claims);
  return { kind: "operator", userId: operator.userId, keyId: null, via: "session" };
}

function authorizeRole(auth: WorkspaceAuth, permission: TPermission): void {
  if (!can(auth.role, permission, auth.environment)) {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      `Your role (${auth.role}) may not ${PERMISSION_LABEL[permission]}${
        permission === "credentials" ? ` (${auth.environment})` : ""
      }`,
    );
  }
}

function logCredential(entry: Partial<RequestLogEntry>, auth: WorkspaceAuth): void {
  entry.workspaceId = auth.workspaceId;
  entry.credentialType = auth.actor.type === "user" ? "session" : "api_key";
  entry.credentialId = auth.actor.id;
  entry.credentialName = auth.actor.name;
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
