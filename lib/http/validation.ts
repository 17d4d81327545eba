/** Request parsing at the HTTP boundary: bodies and queries through zod, path parameters by id format. */
import { z } from "zod";
import { ApiError } from "../errors";
import { validationError, zodDetails } from "../errors/validation";
import { isId, PATH_ID_PARAMS } from "../ids";
import { findUnsafeText, isSafeText, printableText, UNSAFE_TEXT_MESSAGE } from "./safe-text";

/**
 * Parses `input` with `schema`, or throws the 400 naming every offending field. Before any
 * schema runs, a string (value or key) anywhere in the input holding U+0000 or an unpaired
 * surrogate is refused (lib/http/safe-text.ts): this covers every request body and query the
 * REST wrapper parses, whatever the schema says about the field.
 */
export function parseWith<T extends z.ZodType>(
  schema: T,
  input: unknown,
  what: string,
  prefix = "",
): z.infer<T> {
  const unsafe = findUnsafeText(input, prefix);
  if (unsafe !== undefined) throw validationError([{ path: unsafe, message: UNSAFE_TEXT_MESSAGE }], what);
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw validationError(zodDetails(result.error, prefix), what);
  return result.data;
}

/**
 * Path parameters, before any handler reads them: an id parameter (lib/ids PATH_ID_PARAMS) must
 * have its kind's exact format, and no parameter may hold text the database refuses; otherwise
 * 404 RESOURCE_NOT_FOUND, as for an id that does not exist.
 */
export function checkPathParams(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    if (isValidPathParam(name, value)) continue;
    const id = PATH_ID_PARAMS[name];
    const shown = printableText(value.length > 80 ? `${value.slice(0, 80)}…` : value);
    throw new ApiError("RESOURCE_NOT_FOUND", `${id?.label ?? "Resource"} "${shown}" not found`);
  }
}

/** Whether one path parameter passes checkPathParams. */
export function isValidPathParam(name: string, value: string): boolean {
  const id = PATH_ID_PARAMS[name];
  return id
    ? isId(id.prefix, value) || (id.alsoAccepts !== undefined && isId(id.alsoAccepts, value))
    : isSafeText(value);
}
