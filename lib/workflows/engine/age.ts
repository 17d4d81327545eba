/**
 * Age from an OIDC `birthdate` claim (OIDC Core §5.1: `YYYY-MM-DD`, or `YYYY` when only the year
 * is known; year `0000` means the year is withheld).
 * Rules:
 * - the age is counted in whole years on the UTC calendar date of `now`: a birthdate has no time
 *   zone, and UTC keeps the result the same on every server;
 * - a birthday counts from its first day (born 2008-06-15: 18 on 2026-06-15);
 * - someone born on 29 February has their birthday on 1 March in common years (they have not
 *   reached 29 February, which does not exist, before 1 March) — the rule of e.g. the UK and
 *   Germany, and never earlier than the real anniversary;
 * - a year-only birthdate gives a range (born on 31 December … born on 1 January); a birthdate
 *   without a year, malformed, impossible (2023-02-29) or in the future gives no age at all.
 */

export interface TAgeRange {
  /** the age if born on the latest possible day */
  min: number;
  /** the age if born on the earliest possible day */
  max: number;
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const YEAR_ONLY = /^(\d{4})$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whole years between a birth date and `now`'s UTC date; negative when born after it. */
export function ageOn(birth: { year: number; month: number; day: number }, now: Date): number {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const day = now.getUTCDate();
  const hadBirthday = month > birth.month || (month === birth.month && day >= birth.day);
  return year - birth.year - (hadBirthday ? 0 : 1);
}

/** The possible ages of a person with this birthdate claim at `now`, or undefined when unusable. */
export function ageRange(birthdate: unknown, now: Date): TAgeRange | undefined {
  if (typeof birthdate !== "string") return undefined;
  const full = FULL_DATE.exec(birthdate);
  if (full) {
    const [year, month, day] = [Number(full[1]), Number(full[2]), Number(full[3])];
    if (year === 0 || !isCalendarDate(year, month, day)) return undefined;
    const age = ageOn({ year, month, day }, now);
    return age < 0 ? undefined : { min: age, max: age };
  }
  const yearOnly = YEAR_ONLY.exec(birthdate);
  if (yearOnly) {
    const year = Number(yearOnly[1]);
    if (year === 0) return undefined;
    const min = ageOn({ year, month: 12, day: 31 }, now);
    const max = ageOn({ year, month: 1, day: 1 }, now);
    return max < 0 ? undefined : { min: Math.max(min, 0), max };
  }
  return undefined;
}

/**
 * Whether the person is at least `years` old: true or false when the birthdate settles it,
 * "undetermined" when a year-only birthdate straddles the threshold, undefined when there is no
 * usable birthdate.
 */
export function isAtLeast(
  birthdate: unknown,
  years: number,
  now: Date,
): boolean | "undetermined" | undefined {
  const range = ageRange(birthdate, now);
  if (!range) return undefined;
  if (range.min >= years) return true;
  if (range.max < years) return false;
  return "undetermined";
}
