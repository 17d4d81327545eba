/**
 * Text the database can store. PostgreSQL refuses U+0000 in `text` and `jsonb`, and `jsonb`
 * refuses an unpaired UTF-16 surrogate (`"\ud800"`); neither has a meaning in any field of this
 * API. Every surface refuses such input at its boundary with its own error (REST: 400
 * VALIDATION_ERROR naming the field, OAuth: invalid_request, OP pages: the error page), so it
 * never reaches a query and never becomes a 500.
 */

export const UNSAFE_TEXT_MESSAGE = "must not contain NUL characters (U+0000) or unpaired surrogates";

// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` has neither U+0000 nor an unpaired surrogate. */
export function isSafeText(s: string): boolean {
  return !s.includes("\u0000") && !LONE_SURROGATE.test(s);
}

/** `s` with NULs and unpaired surrogates written as \uXXXX, so it can name a field in a message. */
export function printableText(s: string): string {
  return s.replace(
    /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The path of the first string (value or object key) in parsed JSON that is not safe text, in
 * the error envelope's notation (`apps[0].name`), or undefined. Iterative, so any depth is fine.
 */
export function findUnsafeText(value: unknown, prefix = ""): string | undefined {
  const stack: [unknown, string][] = [[value, prefix]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (!isSafeText(v)) return path || "(body)";
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childPath = path ? `${path}.${printableText(key)}` : printableText(key);
        if (!isSafeText(key)) return childPath;
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}
