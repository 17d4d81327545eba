/**
 * The one request pipeline: every route handler (REST through withApi, the token endpoints, the
 * OpenID Provider, the hosted pages' routes, the simulator, the wallet, the TLS ask) is wrapped
 * in `pipeline(surface, handler)`, which
 * - assigns the request id (`req_…`): sent as X-Request-Id, readable inside the handler as
 *   `scope.requestId` or, anywhere below it, `currentRequestId()`;
 * - maps what the handler throws to one error response in the surface's own shape (the surface
 *   renders it, lib/http/surfaces.ts): ApiError as is;
 *   "database unavailable" (lib/http/unavailable.ts) → 503 SERVICE_UNAVAILABLE with Retry-After;
 *   anything else → 500, logged once with the request id;
 * - adds X-Content-Type-Options: nosniff, and HSTS when PUBLIC_URL is https;
 * - writes one access log line: request id, surface, method, path (never the query string:
 *   it may carry personal data or codes), status, ms.
 * `otherMethodsOf(surface, {GET, POST})` gives a route file the methods it does not implement:
 * 405 METHOD_NOT_ALLOWED in the surface's shape with Allow, and OPTIONS with the same Allow.
 * Bodies are read with lib/http/body.ts (size-limited, JSON complexity checked).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { config } from "../config";
import { newId } from "../ids";
import { logger } from "../log";
import { ApiError } from "../errors";
import { inSpan, SpanKind, tracingOn } from "../tracing/spans";
import { SpanStatusCode } from "@opentelemetry/api";
import { isDatabaseUnavailable } from "./unavailable";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type THttpMethod = (typeof HTTP_METHODS)[number];

/** How one surface answers errors; the pipeline decides which error, the surface its shape. */
export interface TSurface {
  /** names the surface in the access log */
  readonly name: string;
  /**
   * the response for an error (status, code, message, details and headers from `error`); `request`
   * for what the answer may depend on (the language of a page)
   */
  error(error: ApiError, requestId: string, request?: Request): Response;
  /** the surface's own error types (e.g. OAuthError) answered as they are; undefined for others */
  own?(err: unknown, requestId: string): Response | undefined;
}

export interface TOutcome {
  status: number;
  /** the code of the error the pipeline answered with; null when the handler returned */
  errorCode: string | null;
  ms: number;
}

export interface TRequestScope {
  readonly requestId: string;
  readonly url: URL;
  /** upper case */
  readonly method: string;
  /** runs once the response is ready (the REST request log uses it) */
  onDone(listener: (outcome: TOutcome) => void): void;
}

export type TPipelineHandler<C, R extends Request = Request> = (
  request: R,
  context: C,
  scope: TRequestScope,
) => Promise<Response>;

const scopes = new AsyncLocalStorage<TRequestScope>();

/** The id of the request being handled (inside a pipeline), else undefined. */
export function currentRequestId(): string | undefined {
  return scopes.getStore()?.requestId;
}

export const RETRY_AFTER_SECONDS = 5;
export const HSTS = "max-age=31536000; includeSubDomains";

/** Headers of every response: nosniff always, HSTS when the service is served over https. */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff" };
  if (config().https) headers["Strict-Transport-Security"] = HSTS;
  return headers;
}

/** `response` with `headers` set; responses with immutable headers (redirects) are copied. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers(response.headers),
    });
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

/** What a thrown value becomes: ApiErrors as they are, the rest mapped (and logged) once. */
export function toApiError(
  err: unknown,
  scope: Pick<TRequestScope, "requestId" | "url" | "method">,
): ApiError {
  if (err instanceof ApiError) return err;
  const where = { requestId: scope.requestId, method: scope.method, path: scope.url.pathname };
  if (isDatabaseUnavailable(err)) {
    logger.error({ err, ...where }, "database unavailable");
    return new ApiError("SERVICE_UNAVAILABLE", "The service is temporarily unavailable. Retry shortly", {
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  }
  logger.error({ err, ...where }, "unhandled error");
  return new ApiError("INTERNAL_ERROR", "Internal server error. Quote the requestId when contacting support");
}

function requestUrl(request: Request): URL {
  try {
    return new URL(request.url);
  } catch {
    return new URL("http://localhost/");
  }
}

export function pipeline<C, R extends Request = Request>(
  surface: TSurface,
  handler: TPipelineHandler<C, R>,
): (request: R, context: C) => Promise<Response> {
  return async (request, context) => {
    const started = performance.now();
    const listeners: ((outcome: TOutcome) => void)[] = [];
    const scope: TRequestScope = {
      requestId: newId("req"),
      url: requestUrl(request),
      method: request.method.toUpperCase(),
      onDone: (listener) => listeners.push(listener),
    };
    if (!tracingOn()) return answer(surface, handler, request, context, scope, started, listeners);
    // one trace per request, its root here (lib/tracing/spans.ts); withApi names it by its route
    return inSpan(
      `${scope.method} ${surface.name}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "http.request.method": scope.method,
          "url.path": scope.url.pathname,
          "idv.request_id": scope.requestId,
          "idv.surface": surface.name,
        },
      },
      async (span) => {
        const response = await answer(surface, handler, request, context, scope, started, listeners);
        span?.setAttribute("http.response.status_code", response.status);
        if (response.status >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
        return response;
      },
    );
  };
}

/** The pipeline's answer to one request (see the module's rules). */
async function answer<C, R extends Request>(
  surface: TSurface,
  handler: TPipelineHandler<C, R>,
  request: R,
  context: C,
  scope: TRequestScope,
  started: number,
  listeners: ((outcome: TOutcome) => void)[],
): Promise<Response> {
  let response: Response;
  let errorCode: string | null = null;
  try {
    response = await scopes.run(scope, () => handler(request, context, scope));
  } catch (err) {
    const own = surface.own?.(err, scope.requestId);
    if (own) {
      response = own;
    } else {
      const error = toApiError(err, scope);
      errorCode = error.code;
      response = surface.error(error, scope.requestId, request);
    }
  }
  response = withHeaders(response, { ...securityHeaders(), "X-Request-Id": scope.requestId });
  const ms = Math.round(performance.now() - started);
  logger.info(
    {
      requestId: scope.requestId,
      surface: surface.name,
      method: scope.method,
      path: scope.url.pathname,
      status: response.status,
      ms,
    },
    "request",
  );
  for (const listener of listeners) {
    try {
      listener({ status: response.status, errorCode, ms });
    } catch (err) {
      logger.error({ err, requestId: scope.requestId }, "request listener failed");
    }
  }
  return response;
}

const NOT_ALLOWED = Symbol.for("idv.methodNotAllowed");

type TMethodHandler = ((request: Request) => Promise<Response>) & { [NOT_ALLOWED]?: true };

/** True for the handlers otherMethodsOf() makes (the route does not implement that method). */
export function isMethodNotAllowed(handler: unknown): boolean {
  return typeof handler === "function" && (handler as TMethodHandler)[NOT_ALLOWED] === true;
}

/**
 * The methods a route file does not implement, for it to export:
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET, POST });`
 * (REST route files use `otherMethods({ GET, POST })` of lib/http/api.ts.)
 * Each answers 405 METHOD_NOT_ALLOWED in the surface's shape with `Allow`; OPTIONS answers 204
 * with the same `Allow` (Next's automatic OPTIONS would list these 405 exports as allowed).
 */
export function otherMethodsOf<T extends Partial<Record<THttpMethod, unknown>>>(
  surface: TSurface,
  implemented: T,
): Record<Exclude<THttpMethod, keyof T> | "OPTIONS", TMethodHandler> {
  const names = HTTP_METHODS.filter((m) => implemented[m] !== undefined);
  const allow = [...names, ...(names.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
  const refuse = pipeline<unknown>(surface, async (request) => {
    throw new ApiError(
      "METHOD_NOT_ALLOWED",
      `${request.method.toUpperCase()} is not allowed here. Allowed: ${allow}`,
      { headers: { Allow: allow } },
    );
  });
  const notAllowed: TMethodHandler = (request) => refuse(request, undefined);
  notAllowed[NOT_ALLOWED] = true;
  const answer = pipeline<unknown>(
    surface,
    async () => new Response(null, { status: 204, headers: { Allow: allow } }),
  );
  const options: TMethodHandler = (request) => answer(request, undefined);
  const out: Record<string, TMethodHandler> = { OPTIONS: options };
  for (const m of HTTP_METHODS) if (!names.includes(m)) out[m] = notAllowed;
  return out as Record<Exclude<THttpMethod, keyof T> | "OPTIONS", TMethodHandler>;
}
