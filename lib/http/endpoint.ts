/**
 * Endpoint definitions: one object per REST operation holding everything the wrapper and the
 * OpenAPI document need — method, path, authentication, request schemas, idempotency, summary
 * and documented responses. Route files pass the definition to `withApi`, so the document is
 * generated from the very schemas the handlers validate with.
 */
import type { z } from "zod";
import type { TPermission } from "../auth/roles";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type AuthKind = "workspace" | "app" | "operator" | "none";

/** What an endpoint asks of withApi (lib/http/api.ts). */
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

export interface ResponseDoc {
  description: string;
  /** body schema; in tests every response body is checked against it */
  schema?: z.ZodType;
  headers?: Record<string, string>;
}

/** `client_id` → `clientId`: the route directory's name of a path parameter. */
type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer R}`
  ? CamelCase<N> | ParamNames<R>
  : never;

/**
 * The path parameters a handler receives, typed from its definition's path:
 * `/v1/apps/{client_id}/workflows/{workflow_id}` → `{ clientId: string; workflowId: string }`.
 */
export type PathParams<P extends string> = { readonly [K in ParamNames<P>]: string };

/** The route directory's names of the path parameters of an OpenAPI path (`{client_id}` → `clientId`). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) =>
    m[1]!.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
  );
}

export interface EndpointDef<
  A extends AuthKind = AuthKind,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends string = string,
> extends ApiOptions<A, B, Q> {
  method: HttpMethod;
  /** path below {base_url}, OpenAPI style: /v1/apps/{client_id} */
  path: P;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  responses: Record<number, ResponseDoc>;
  /** documented error statuses besides the ones implied by auth (401/403/404) and a body (400/413/415) */
  errors?: number[];
}

export function endpoint<
  A extends AuthKind,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  const P extends string = string,
>(def: EndpointDef<A, B, Q, P>): EndpointDef<A, B, Q, P> {
  return def;
}
