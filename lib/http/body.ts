/**
 * Request bodies: JSON only, at most 1 MB, parsed once. Empty bodies read as `undefined` so
 * endpoints with optional bodies (create app, rotate secret) accept none.
 */
import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

export interface RawBody {
  text: string;
  json: unknown;
}

function tooLarge(): ApiError {
  return new ApiError(
    "PAYLOAD_TOO_LARGE",
    `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes (1 MB)`,
  );
}

export async function readJsonBody(request: Request): Promise<RawBody> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return { text: "", json: undefined };

  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json" && !mediaType?.endsWith("+json")) {
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"})`,
    );
  }
  try {
    return { text, json: JSON.parse(text) as unknown };
  } catch (err) {
    throw new ApiError("INVALID_JSON", `Request body is not valid JSON: ${(err as Error).message}`);
  }
}
