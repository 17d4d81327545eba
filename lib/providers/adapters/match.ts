/**
 * Match providers: compare the caller's matchData with what the source holds about the person.
 * Rules:
 * - matchData keys are OIDC-normalized claim names, each one the provider compares (its catalog
 *   `claims`); 1–20 fields; values are non-empty strings, `address` may also be an OIDC address
 *   object; checked once at session creation (`validateMatchData`) so a bad field is a 400 naming
 *   `matchData.<key>`, never a failed session later;
 * - names are compared after folding (NFKD, diacritics stripped, ß→ss and similar letters,
 *   case-folded, hyphens/punctuation/whitespace collapsed) with a similarity 0–100 (restricted
 *   Damerau–Levenshtein, also on the sorted name parts); matched at NAME_SIMILARITY_THRESHOLD;
 * - birthdate exact (YYYY-MM-DD); phone numbers on their E.164 digits; emails case-insensitive;
 *   addresses on street + postal code (+ locality/region/country when given) or the formatted
 *   line, with numbers (house number, postal code) exact and words similar as names are;
 *   gender and nationality case-insensitive; a field the source lacks never matches;
 * - per_field: every field gets {matched, submitted_value, similarity (names)}; aggregate: only
 *   {submitted_value}; the aggregate outcome is true only when at least one field was submitted
 *   and every submitted field matched;
 * - the verified user is built from the caller's submitted values, never from the source's own
 *   record: per_field the matched fields, aggregate all fields when the outcome is true, else none.
 */
import { invalidField } from "../../errors";
import { isKnownClaim } from "../claims";
import type { TProviderDefinition } from "../catalog";
import type { TMatchDetail, TMatchResult } from "./types";

export type TMatchGranularity = "per_field" | "aggregate";

/** Name similarity (0–100) from which two names count as the same. */
export const NAME_SIMILARITY_THRESHOLD = 85;

export const MATCH_DATA_MAX_FIELDS = 20;
export const MATCH_VALUE_MAX_LENGTH = 256;

const NAME_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "given_name",
  "family_name",
  "middle_name",
  "nickname",
  "preferred_username",
  "birth_family_name",
]);

const ADDRESS_PARTS = [
  "formatted",
  "street_address",
  "locality",
  "region",
  "postal_code",
  "country",
] as const;
type TAddressPart = (typeof ADDRESS_PARTS)[number];
type TAddress = Partial<Record<TAddressPart, string>>;

// Letters NFKD does not decompose into a base letter plus marks.
const LETTER_FOLDS: Record<string, string> = {
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
};

/** Case-folded text without diacritics, punctuation, hyphens or repeated whitespace. */
export function foldText(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßẞæœøłđðþıħ]/g, (c) => LETTER_FOLDS[c] ?? c)
    .replace(/['’ʼ`´]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[s.length]![t.length]!;
}

function ratio(a: string, b: string): number {
  const longest = Math.max([...a].length, [...b].length);
  if (longest === 0) return 100;
  return Math.round(100 * (1 - editDistance(a, b) / longest));
}

const sortParts = (folded: string) => folded.split(" ").sort().join(" ");

/**
 * Similarity 0–100 of two names after folding; name parts in another order ("Garcia Lopez" /
 * "Lopez Garcia") count as the same name.
 */
export function nameSimilarity(a: string, b: string): number {
  const x = foldText(a);
  const y = foldText(b);
  return Math.max(ratio(x, y), ratio(sortParts(x), sortParts(y)));
}

/** E.164 digits: "+49 151 1234-5678", "0049 15112345678" → "4915112345678". */
export function phoneDigits(value: string): string {
  const trimmed = value.trim();
  const digits = trimmed.replace(/\D/g, "");
  return !trimmed.startsWith("+") && digits.startsWith("00") ? digits.slice(2) : digits;
}

const STREET_ABBREVIATIONS: Record<string, string> = { str: "strasse", rd: "road", ave: "avenue" };

/**
 * Folded address text: "Heidestr. 17", "Heidestraße 17" and "Heide Strasse 17" fold alike, and so
 * do "Köln" and its transliteration "Koeln".
 */
function foldAddressText(value: string): string {
  // German ae/oe/ue transliterations fold onto the plain vowel, as ä/ö/ü do in foldText
  return foldText(value.replace(/(?<=[aou])e/gi, ""))
    .split(" ")
    .map((w) => STREET_ABBREVIATIONS[w] ?? w.replace(/^(\p{L}+)(?:str|strasse)$/u, "$1 strasse"))
    .join(" ");
}

const compactPostal = (value: string) => value.replace(/[\s-]/g, "").toUpperCase();

function asAddress(value: unknown): TAddress | undefined {
  if (typeof value === "string") return value.trim() ? { formatted: value } : undefined;
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const out: TAddress = {};
  for (const part of ADDRESS_PARTS) {
    const v = (value as Record<string, unknown>)[part];
    if (typeof v === "string" && v.trim()) out[part] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function addressLines(a: TAddress): string[] {
  const lines: string[] = [];
  if (a.formatted) lines.push(a.formatted);
  if (a.street_address) {
    const rest = [a.postal_code, a.locality].filter(Boolean).join(" ");
    lines.push(`${a.street_address} ${rest}`, `${a.street_address} ${rest} ${a.country ?? ""}`);
  }
  return lines;
}

/**
 * Two address texts are the same when their numbers (house numbers, postal codes) are identical
 * and their words pair up one to one, each pair similar as names are: a typo in a street name is
 * tolerated, "17" for "71" or "Bonn" for "Köln" is not.
 */
function sameAddressText(x: string, y: string): boolean {
  const fx = foldAddressText(x).split(" ");
  const fy = foldAddressText(y).split(" ");
  const numbers = (tokens: string[]) => tokens.filter((t) => /\d/.test(t));
  const [nx, ny] = [numbers(fx), numbers(fy)];
  if ([...nx].sort().join(" ") !== [...ny].sort().join(" ") && nx.join("") !== ny.join("")) return false;
  const wx = fx.filter((t) => t && !/\d/.test(t));
  const wy = fy.filter((t) => t && !/\d/.test(t));
  if (wx.length !== wy.length) return false;
  const unpaired = [...wy];
  for (const word of wx) {
    let best = -1;
    let bestScore = -1;
    unpaired.forEach((candidate, i) => {
      const score = ratio(word, candidate);
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    if (bestScore < NAME_SIMILARITY_THRESHOLD) return false;
    unpaired.splice(best, 1);
  }
  return true;
}

function addressMatches(submitted: TAddress, register: TAddress): boolean {
  if (submitted.street_address) {
    if (!register.street_address || !sameAddressText(submitted.street_address, register.street_address))
      return false;
    if (
      submitted.postal_code &&
      compactPostal(submitted.postal_code) !== compactPostal(register.postal_code ?? "")
    )
      return false;
    if (submitted.locality && !(register.locality && sameAddressText(submitted.locality, register.locality)))
      return false;
    if (submitted.region && !(register.region && sameAddressText(submitted.region, register.region)))
      return false;
    if (
      submitted.country &&
      submitted.country.trim().toUpperCase() !== register.country?.trim().toUpperCase()
    )
      return false;
    return true;
  }
  if (!submitted.formatted) return false;
  const line = submitted.formatted;
  return addressLines(register).some((candidate) => sameAddressText(line, candidate));
}

const GENDER_ALIASES: Record<string, string> = { f: "female", m: "male", w: "female" };
const foldGender = (value: string) => {
  const folded = foldText(value);
  return GENDER_ALIASES[folded] ?? folded;
};

interface TVerdict {
  matched: boolean;
  similarity?: number;
}

function compareField(field: string, submitted: unknown, register: unknown): TVerdict {
  if (register === undefined || register === null || register === "") {
    return { matched: false };
  }
  if (field === "address") {
    const s = asAddress(submitted);
    const r = asAddress(register);
    return { matched: !!s && !!r && addressMatches(s, r) };
  }
  if (typeof submitted !== "string" || typeof register !== "string") {
    return { matched: false };
  }
  if (NAME_FIELDS.has(field)) {
    const similarity = nameSimilarity(submitted, register);
    return { matched: similarity >= NAME_SIMILARITY_THRESHOLD, similarity };
  }
  switch (field) {
    case "birthdate":
      return { matched: submitted.trim() === register.trim() };
    case "phone_number": {
      const digits = phoneDigits(submitted);
      return { matched: digits.length > 0 && digits === phoneDigits(register) };
    }
    case "email":
      return { matched: submitted.trim().toLowerCase() === register.trim().toLowerCase() };
    case "nationality":
      return { matched: submitted.trim().toUpperCase() === register.trim().toUpperCase() };
    case "gender":
      return { matched: foldGender(submitted) === foldGender(register) };
    default:
      return { matched: foldText(submitted) === foldText(register) };
  }
}

/**
 * Compares matchData (OIDC-normalized keys) with the source's record of the person. Throws a
 * 400 naming `matchData.<key>` for a key that is no claim name or a value of the wrong type.
 */
export function compareMatch(
  matchData: Record<string, unknown>,
  register: Record<string, unknown>,
  granularity: TMatchGranularity,
): { result: TMatchResult; verifiedUser: Record<string, unknown> } {
  const fields = Object.keys(matchData);
  for (const field of fields) {
    if (!isKnownClaim(field))
      throw invalidField(`matchData.${field}`, "is not a claim name that can be compared");
    checkMatchValue(field, matchData[field]);
  }
  const verdicts = new Map(fields.map((f) => [f, compareField(f, matchData[f], register[f])]));
  const matched = fields.length > 0 && [...verdicts.values()].every((v) => v.matched);

  const details: Record<string, TMatchDetail> = {};
  for (const [field, verdict] of verdicts) {
    details[field] =
      granularity === "per_field"
        ? {
            matched: verdict.matched,
            submitted_value: matchData[field],
            ...(verdict.similarity !== undefined ? { similarity: verdict.similarity } : {}),
          }
        : { submitted_value: matchData[field] };
  }
  const verifiedFields =
    granularity === "per_field" ? fields.filter((f) => verdicts.get(f)!.matched) : matched ? fields : [];
  return {
    result: { matched, granularity, submitted_fields: fields, details },
    verifiedUser: Object.fromEntries(verifiedFields.map((f) => [f, matchData[f]])),
  };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

function checkString(path: string, value: unknown): string {
  if (typeof value !== "string") throw invalidField(path, "must be a string");
  if (!value.trim()) throw invalidField(path, "must not be empty");
  if (value.length > MATCH_VALUE_MAX_LENGTH)
    throw invalidField(path, `must be at most ${MATCH_VALUE_MAX_LENGTH} characters`);
  return value;
}

function checkMatchValue(field: string, value: unknown): void {
  const path = `matchData.${field}`;
  if (field === "address" && value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value);
    for (const [part, v] of entries) {
      if (!(ADDRESS_PARTS as readonly string[]).includes(part))
        throw invalidField(`${path}.${part}`, `is not an address field (${ADDRESS_PARTS.join(", ")})`);
      checkString(`${path}.${part}`, v);
    }
    const a = value as TAddress;
    if (!a.formatted && !a.street_address)
      throw invalidField(path, "needs formatted or street_address (with postal_code or locality)");
    return;
  }
  const text = checkString(path, value);
  switch (field) {
    case "birthdate":
      if (!isCalendarDate(text.trim())) throw invalidField(path, "must be a date YYYY-MM-DD");
      break;
    case "phone_number":
      if (!/^\+?[\d\s().-]+$/.test(text.trim()) || !/^\d{6,15}$/.test(phoneDigits(text)))
        throw invalidField(path, "must be a phone number in E.164 form, e.g. +4915112345678");
      break;
    case "email":
      if (!/^[^\s@]+@[^\s@]+$/.test(text.trim())) throw invalidField(path, "must be an email address");
      break;
  }
}

/**
 * The session-creation check of matchData for `provider`. Disclosure providers take none (absent
 * → undefined); match providers require it. Returns a copy of the validated object.
 */
export function validateMatchData(
  provider: TProviderDefinition,
  matchData: unknown,
): Record<string, unknown> | undefined {
  if (provider.verificationModel !== "match") {
    if (matchData === undefined) return undefined;
    throw invalidField(
      "matchData",
      `is only accepted by match providers; ${provider.id} discloses attributes`,
    );
  }
  if (matchData === undefined || matchData === null)
    throw invalidField("matchData", `is required: ${provider.id} compares the data you submit`);
  if (typeof matchData !== "object" || Array.isArray(matchData))
    throw invalidField("matchData", "must be an object");
  const entries = Object.entries(matchData);
  if (entries.length === 0) throw invalidField("matchData", "must contain at least one field");
  if (entries.length > MATCH_DATA_MAX_FIELDS)
    throw invalidField("matchData", `must contain at most ${MATCH_DATA_MAX_FIELDS} fields`);
  const comparable: readonly string[] = provider.claims;
  for (const [key, value] of entries) {
    if (!comparable.includes(key))
      throw invalidField(
        `matchData.${key}`,
        `is not compared by ${provider.id} (allowed: ${comparable.join(", ")})`,
      );
    checkMatchValue(key, value);
  }
  return Object.fromEntries(entries);
}
