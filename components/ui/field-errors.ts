/**
 * Field errors as a person reads them, for every console form that shows the API's
 * `details[].path` messages on its fields (and the same words for the forms' own checks).
 * Rules:
 * - a message names the field by its visible label and says what to do, in the words of the
 *   form: "Legal company name: enter a name", "User data level: choose Basic, Standard or
 *   Extended" — never the API's terse "must not be empty" / "must be one of: basic, …";
 * - a known API phrase is rewritten; an unknown one is kept, after the label (it is still true);
 * - a field's API error is shown until that field changes: `useFieldErrors` forgets a path as
 *   soon as its value is edited, and starts over with each new error (each submit);
 * - no dependency on the console's API client: any error with `details: {path, message}[]` works.
 */
import { useState } from "react";

export interface TFieldDetail {
  path: string;
  message: string;
}

/** How a field is filled in, which decides the words of "it is missing". */
export interface TFieldSpec {
  label: string;
  kind?: "text" | "email" | "url" | "choice" | "multi" | "consent";
  /** the choices as the person sees them, for "choose A, B or C" */
  choices?: readonly string[];
  /** other fields' API names as the form labels them, for messages that mention them */
  names?: Readonly<Record<string, string>>;
}

/** "A", "A or B", "A, B or C". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** An option value as words: `age_verification` → "Age verification". */
export function optionWords(value: string): string {
  const text = value.replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const ARTICLE = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

/** What to enter in an empty field: "a name" for "Legal company name", "an email address". */
function whatToEnter(spec: TFieldSpec): string {
  if (spec.kind === "email") return "enter an email address, like name@example.com";
  if (spec.kind === "url") return "enter a web address starting with https://";
  if (spec.kind === "choice") return choose(spec);
  if (spec.kind === "multi") return "choose at least one";
  if (spec.kind === "consent") return "tick the box to continue";
  const last = spec.label.trim().split(/\s+/).pop()?.toLowerCase() ?? "";
  return /^[a-z]{3,}$/.test(last) && last !== "url" ? `enter ${ARTICLE(last)}` : "fill this in";
}

function choose(spec: TFieldSpec): string {
  return spec.choices?.length ? `choose ${orList(spec.choices)}` : "choose one of the options";
}

/** The API's (or a form's own check's) message about one field, in words for a person. */
export function fieldMessage(spec: TFieldSpec, raw: string): string {
  let text = raw.trim();
  for (const [name, words] of Object.entries(spec.names ?? {}))
    text = text.replace(new RegExp(`\\b${name}\\b`, "g"), words);
  const say = (words: string) => `${spec.label}: ${words}`;
  if (
    /^required\b|must not be empty|is required|^invalid input: expected \w+, received undefined/i.test(text)
  )
    return say(whatToEnter(spec));
  const max = /must be at most (\d+) characters/i.exec(text);
  if (max) return say(`use at most ${max[1]} characters`);
  const min = /must be at least (\d+) characters/i.exec(text);
  if (min) return say(`use at least ${min[1]} characters`);
  if (/must be an? (valid )?email/i.test(text)) return say(whatToEnter({ ...spec, kind: "email" }));
  if (/must be an absolute url|must use https or http|must be an? (valid )?url/i.test(text))
    return say(whatToEnter({ ...spec, kind: "url" }));
  if (/must be true/i.test(text)) return say("tick the box to continue");
  if (/must select at least one/i.test(text)) return say("choose at least one");
  if (/must not repeat/i.test(text)) return say("choose each option once");
  if (/must be one of|is not one of|must be an array of option values/i.test(text))
    return say(spec.kind === "multi" ? `choose from ${orList(spec.choices ?? [])}` : choose(spec));
  return say(text);
}

/** The detail of `path` (or of a path below it: `path.x`, `path[0]`), if the error has one. */
export function detailOf(error: unknown, path: string): string | undefined {
  const details = (error as { details?: unknown } | null)?.details;
  if (!Array.isArray(details)) return undefined;
  return (details as TFieldDetail[]).find(
    (d) => d.path === path || d.path.startsWith(`${path}.`) || d.path.startsWith(`${path}[`),
  )?.message;
}

export interface TFieldErrors {
  /** The field's API error in words, until the field changes; undefined when there is none. */
  message: (path: string, spec: TFieldSpec) => string | undefined;
  /** Call when the field at `path` changes: its API error goes away. */
  changed: (path: string) => void;
  /** Whether the error names one of `paths` (so the form need not repeat it above the buttons). */
  names: (...paths: string[]) => boolean;
}

/** The API's field errors of one form, each shown until its field changes. */
export function useFieldErrors(error: unknown): TFieldErrors {
  const [changedPaths, setChangedPaths] = useState<ReadonlySet<string>>(() => new Set());
  const [seen, setSeen] = useState(error);
  if (seen !== error) {
    // a new answer (a new submit): every field it names shows its error again
    setSeen(error);
    setChangedPaths(new Set());
  }
  return {
    message: (path, spec) => {
      if (changedPaths.has(path)) return undefined;
      const raw = detailOf(error, path);
      return raw ? fieldMessage(spec, raw) : undefined;
    },
    changed: (path) => setChangedPaths((paths) => (paths.has(path) ? paths : new Set([...paths, path]))),
    names: (...paths) => paths.some((p) => detailOf(error, p) !== undefined),
  };
}
