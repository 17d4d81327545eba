/**
 * Request bodies: the one size-limited reader of every surface (REST, the OAuth endpoints, the
 * OpenID Provider, the hosted and simulator form posts, the wallet). Rules:
 * - a declared Content-Length over the limit is refused before a byte is read; a streamed body
 *   is counted as it arrives and refused (413 PAYLOAD_TOO_LARGE) as soon as it passes the limit,
 *   never truncated; the limit is per surface (default 1 MB);
 * - JSON (`application/json`, `*+json`) is scanned without recursion before it is parsed: nesting
 *   deeper than 32 levels or more than 20,000 values is 400 JSON_TOO_COMPLEX, naming where;
 *   malformed JSON is 400 INVALID_JSON;
 * - forms are `application/x-www-form-urlencoded` only;
 * - other media types are 415 UNSUPPORTED_MEDIA_TYPE; an empty body reads as absent whatever
 *   its type, so endpoints with optional bodies (create app, rotate secret) accept none.
 * Errors are ApiErrors; each surface renders them in its own shape (lib/http/surfaces.ts).
 */
import { ApiError } from "../errors";

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_VALUES = 20_000;

export interface RawBody {
  text: string;
  json: unknown;
}

export interface BodyLimits {
  /** the surface's limit in bytes; default MAX_BODY_BYTES (1 MB) */
  maxBytes?: number;
}

function humanBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

export function payloadTooLarge(maxBytes: number = MAX_BODY_BYTES): ApiError {
  return new ApiError(
    "PAYLOAD_TOO_LARGE",
    `Request body exceeds the limit of ${maxBytes} bytes (${humanBytes(maxBytes)})`,
  );
}

/** The media type of the request's Content-Type, lower case, without parameters ("" when none). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** True when the declared Content-Length is over `maxBytes` (the body need not be read to know). */
export function declaresMoreThan(headers: Headers, maxBytes: number): boolean {
  const declared = headers.get("content-length");
  return declared !== null && Number(declared) > maxBytes;
}

/** The body as UTF-8 text, at most `maxBytes` bytes; over that → 413 without reading the rest. */
export async function readBodyText(request: Request, maxBytes: number = MAX_BODY_BYTES): Promise<string> {
  if (declaresMoreThan(request.headers, maxBytes)) throw payloadTooLarge(maxBytes);
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // the client went away mid-body (Node's "aborted"): nobody reads the answer, and it is
      // neither a server fault nor the database
      throw new ApiError(
        "VALIDATION_ERROR",
        "The request body could not be read: the connection was closed",
        {
          details: [{ path: "(body)", message: "incomplete" }],
        },
      );
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // not awaited: cancelling one branch of a cloned (tee'd) body settles only once the other
      // branch is cancelled too
      reader.cancel().catch(() => undefined);
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooComplex(path: string, message: string): ApiError {
  return new ApiError("JSON_TOO_COMPLEX", `Request body is too complex: ${path}: ${message}`, {
    details: [{ path, message }],
  });
}

interface Frame {
  array: boolean;
  /** the key (objects) or index (arrays) of the value being read in this container */
  key: string | number;
}

function pathOf(stack: Frame[]): string {
  let path = "";
  for (const frame of stack) {
    if (typeof frame.key === "number") path += `[${frame.key}]`;
    else path += path === "" ? frame.key : `.${frame.key}`;
  }
  return path || "(body)";
}

/**
 * Refuses JSON text nesting deeper than MAX_JSON_DEPTH containers or holding more than
 * MAX_JSON_VALUES values, by one pass over the text without recursion, before JSON.parse and any
 * schema (which recurse) see it. Malformed text is left for JSON.parse to report.
 */
export function checkJsonComplexity(text: string): void {
  const stack: Frame[] = [];
  let values = 0;
  let expectKey = false;
  const count = () => {
    if (++values > MAX_JSON_VALUES) {
      throw tooComplex("(body)", `must hold at most ${MAX_JSON_VALUES} values`);
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      let escaped = false;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (escaped) escaped = false;
        else if (d === 0x5c /* \ */) escaped = true;
        else if (d === 0x22) break;
      }
      const top = stack[stack.length - 1];
      if (expectKey && top && !top.array) {
        // keys name the path; a key that is not valid JSON text is JSON.parse's to report
        try {
          top.key = JSON.parse(text.slice(i, end + 1)) as string;
        } catch {
          top.key = "?";
        }
        expectKey = false;
      } else {
        count();
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      count();
      stack.push({ array: c === 0x5b, key: c === 0x5b ? 0 : "" });
      if (stack.length > MAX_JSON_DEPTH) {
        throw tooComplex(pathOf(stack.slice(0, -1)), `must not nest deeper than ${MAX_JSON_DEPTH} levels`);
      }
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.key = (top.key as number) + 1;
      expectKey = top !== undefined && !top.array;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      // a number, true, false or null: one value, whatever its length
      count();
      while (i + 1 < text.length && /[0-9a-zA-Z.+-]/.test(text[i + 1]!)) i++;
    }
  }
}

/** JSON text → value: complexity first (400 JSON_TOO_COMPLEX), then JSON.parse (400 INVALID_JSON). */
export function parseJsonText(text: string): unknown {
  checkJsonComplexity(text);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ApiError("INVALID_JSON", `Request body is not valid JSON: ${(err as Error).message}`);
  }
}

export async function readJsonBody(request: Request, limits: BodyLimits = {}): Promise<RawBody> {
  const text = await readBodyText(request, limits.maxBytes ?? MAX_BODY_BYTES);
  if (text.trim() === "") return { text: "", json: undefined };

  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = mediaTypeOf(request);
  if (mediaType !== "application/json" && !mediaType.endsWith("+json")) {
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"})`,
    );
  }
  return { text, json: parseJsonText(text) };
}

export const FORM_MEDIA_TYPE = "application/x-www-form-urlencoded";

/** An application/x-www-form-urlencoded body; an empty body is an empty form. */
export async function readFormBody(request: Request, limits: BodyLimits = {}): Promise<URLSearchParams> {
  const text = await readBodyText(request, limits.maxBytes ?? MAX_BODY_BYTES);
  const mediaType = mediaTypeOf(request);
  if (mediaType !== FORM_MEDIA_TYPE) {
    if (text.trim() === "") return new URLSearchParams();
    const contentType = request.headers.get("content-type") ?? "";
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be ${FORM_MEDIA_TYPE} (got ${contentType ? `"${contentType}"` : "none"})`,
    );
  }
  return new URLSearchParams(text);
}
