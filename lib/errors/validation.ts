/** zod issues → the error envelope's `details`, each naming the offending field. */
import { z } from "zod";
import { ApiError, type ErrorCode, type ErrorDetail } from "./index";

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
        // an empty key is named too: `""`, never a blank path
        const path = [prefix, base, key === "" ? '""' : key].filter(Boolean).join(".");
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
