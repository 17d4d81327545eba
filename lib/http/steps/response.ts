/**
 * withApi's last step: the handler's plain result ({status, body, headers}) becomes the Response,
 * after — with IDV_VALIDATE_RESPONSES=1, as in the tests — the check that the status is documented
 * on the endpoint definition and the body matches its schema (so the OpenAPI document cannot
 * drift from what the handlers answer).
 */
import type { z } from "zod";
import { BufferedResponse } from "../buffered-response";

export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const BASE_HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
};

export function json(status: number, body?: unknown, headers?: Record<string, string>): ApiResult {
  return { status, body, headers };
}

/** The Response of `result`: no body for 204 or an undefined body, else its JSON, never cached. */
export function toResponse(result: ApiResult): Response {
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

/**
 * Throws (a programming error, so a 500) unless `result`'s status is documented on the endpoint
 * definition `options` and its body matches the documented schema.
 */
export function checkDocumentedResponse(options: object, result: ApiResult): void {
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
