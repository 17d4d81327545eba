/**
 * Endpoint definitions: one object per REST operation holding everything the wrapper and the
 * OpenAPI document need — method, path, authentication, request schemas, idempotency, summary
 * and documented responses. Route files pass the definition to `withApi`, so the document is
 * generated from the very schemas the handlers validate with.
 */
import type { z } from "zod";
import type { ApiOptions, AuthKind } from "./api";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ResponseDoc {
  description: string;
  /** body schema; in tests every response body is checked against it */
  schema?: z.ZodType;
  headers?: Record<string, string>;
}

export interface EndpointDef<
  A extends AuthKind = AuthKind,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
> extends ApiOptions<A, B, Q> {
  method: HttpMethod;
  /** path below {base_url}, OpenAPI style: /v1/apps/{client_id} */
  path: string;
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
>(def: EndpointDef<A, B, Q>): EndpointDef<A, B, Q> {
  return def;
}
