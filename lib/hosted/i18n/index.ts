/**
 * Languages of the hosted and simulator pages.
 * Rules:
 * - English, German and French; the session's `locale` (set by the integrator) wins, then the
 *   browser's Accept-Language in its q order, then English;
 * - only the primary subtag is matched (de-CH → de, fr-BE → fr);
 * - placeholders are `{name}`; a missing value leaves the placeholder visible rather than
 *   silently dropping words.
 */
import { memberGuard } from "../../state-machine";
import { de } from "./de";
import { en } from "./en";
import { fr } from "./fr";
import type { TMessages } from "./types";

export type { TMessages } from "./types";

export const LOCALES = ["en", "de", "fr"] as const;
export type TLocale = (typeof LOCALES)[number];

const DICTIONARIES: Record<TLocale, TMessages> = { en, de, fr };
const isLocale = memberGuard(LOCALES);

function primary(tag: string): TLocale | undefined {
  const lang = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(lang) ? lang : undefined;
}

/** The languages of an Accept-Language header, best first (RFC 9110 §12.5.4). */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((l) => l.tag !== "" && l.tag !== "*" && l.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((l) => l.tag);
}

export function pickLocale(sessionLocale: string | null | undefined, acceptLanguage: string | null): TLocale {
  if (sessionLocale) {
    const fromSession = primary(sessionLocale);
    if (fromSession) return fromSession;
  }
  for (const tag of parseAcceptLanguage(acceptLanguage)) {
    const match = primary(tag);
    if (match) return match;
  }
  return "en";
}

export function messagesFor(locale: TLocale): TMessages {
  return DICTIONARIES[locale];
}

export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** Country names in the page's language (the catalog holds ISO codes). */
export function countryNames(codes: readonly string[], locale: TLocale): string[] {
  const names = new Intl.DisplayNames([locale], { type: "region", fallback: "code" });
  return codes.map((code) => names.of(code) ?? code);
}
