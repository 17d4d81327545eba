/** zod issues → the error envelope's `details`, each naming the offending field. */
import { z } from "zod";
import { ApiError, type ErrorCode, type ErrorDetail } from "../errors";
import { isId, PATH_ID_PARAMS } from "../ids";
import { findUnsafeText, isSafeText, printableText, UNSAFE_TEXT_MESSAGE } from "./safe-text";

function joinPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
    .join("");
}

/**
 * A missing field is an invalid_type issue whose input was undefined. zod 4 drops `input` from
 * issues unless parsed with `reportInput`, so without it every wrong-typed field would read as
 * "Required"; then fall back on zod's default message, which names the received type.
 */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if (issue.code !== "invalid_type") return false;
  if ("input" in issue) return issue.input === undefined;
  return / received undefined$/.test(issue.message);
}

export function zodDetails(error: z.ZodError, prefix = ""): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    const base = joinPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const path = [prefix, base, key].filter(Boolean).join(".");
        details.push({ path, message: "Unknown field" });
      }
      continue;
    }
    const message = isMissing(issue) ? "Required" : issue.message;
    details.push({ path: [prefix, base].filter(Boolean).join(".") || "(body)", message });
  }
  return details;
}

export function validationError(
  details: ErrorDetail[],
  what = "Invalid request",
  code: ErrorCode = "VALIDATION_ERROR",
) {
  const summary = details.map((d) => `${d.path}: ${d.message}`).join("; ");
  return new ApiError(code, `${what}: ${summary}`, { details });
}

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
    const id = PATH_ID_PARAMS[name];
    const valid = id
      ? isId(id.prefix, value) || (id.alsoAccepts !== undefined && isId(id.alsoAccepts, value))
      : isSafeText(value);
    if (valid) continue;
    const shown = printableText(value.length > 80 ? `${value.slice(0, 80)}…` : value);
    throw new ApiError("RESOURCE_NOT_FOUND", `${id?.label ?? "Resource"} "${shown}" not found`);
  }
}
