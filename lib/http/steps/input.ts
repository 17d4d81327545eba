/**
 * withApi's request input: the body (read only for methods that carry one: lib/http/body.ts,
 * 1 MB, JSON depth and size, media type) and the query, each through the definition's zod schema
 * (lib/http/validation.ts, which also refuses NUL and lone surrogates). An endpoint without a
 * body schema takes no body: anything but nothing or `{}` is 400.
 */
import { ApiError } from "../../errors";
import type { RawBody } from "../body";
import type { EndpointDef } from "../endpoint";
import { parseWith } from "../validation";

/** The body of a method that carries none (shared: nothing writes to it). */
export const NO_BODY: Readonly<RawBody> = Object.freeze({ text: "", json: undefined });

/**
 * Whether requests of `method` (upper case) carry a body withApi reads (with readJsonBody of
 * lib/http/body.ts; awaited only then, so a GET waits for nothing here).
 */
export function carriesBody(method: string): boolean {
  return !(method === "GET" || method === "HEAD" || method === "DELETE");
}

/** The body as the definition's schema parses it; undefined for an endpoint that takes none. */
export function parseBody(def: EndpointDef, raw: RawBody): unknown {
  if (def.body) return parseWith(def.body, raw.json, "Invalid request body");
  const json = raw.json;
  if (json !== undefined && !(typeof json === "object" && json !== null && Object.keys(json).length === 0)) {
    throw new ApiError("VALIDATION_ERROR", "This endpoint takes no request body", {
      details: [{ path: "(body)", message: "must be empty" }],
    });
  }
  return undefined;
}

/** The query string as the definition's schema parses it; undefined without a schema. */
export function parseQuery(def: EndpointDef, url: URL): unknown {
  return def.query
    ? parseWith(def.query, Object.fromEntries(url.searchParams.entries()), "Invalid query parameters")
    : undefined;
}
