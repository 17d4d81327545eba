/**
 * Value formats the identity schemes share, for the native profiles of the sandbox simulator:
 * OIDC claim values turned into what a scheme prints — MRZ names, compact dates, ICAO country
 * codes, sex letters, street and house number, eIDAS levels — and national identity numbers.
 * Rules:
 * - a claim value that does not have the expected type is treated as absent, never guessed;
 * - national identity numbers derive from the birthdate (and the sex where the number encodes
 *   it) plus deterministic digits of the context, and carry valid check digits.
 */
import type { TIdentityClaims } from "../identities";
import type { TProfileContext } from "./native-context";

/** The OIDC `address` claim (its string members). */
export interface TAddressClaim {
  formatted?: string;
  street_address?: string;
  postal_code?: string;
  locality?: string;
  country?: string;
}

/** A string claim value, or undefined. */
export const str = (v: unknown) => (typeof v === "string" ? v : undefined);

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null;

/** An address claim value as its string members; {} when the value is not an object. */
export function addressClaim(value: unknown): TAddressClaim {
  if (!isObject(value)) return {};
  const address: TAddressClaim = {};
  for (const key of ["formatted", "street_address", "postal_code", "locality", "country"] as const) {
    const member = str(value[key]);
    if (member !== undefined) address[key] = member;
  }
  return address;
}

/** The disclosed address, when there is one. */
export const addressOf = (claims: TIdentityClaims): TAddressClaim | undefined =>
  isObject(claims.address) ? addressClaim(claims.address) : undefined;

// prettier-ignore
const ALPHA3: Record<string, string> = {
  AT: "AUT", AU: "AUS", BE: "BEL", BG: "BGR", BR: "BRA", CA: "CAN", CH: "CHE", CY: "CYP", CZ: "CZE",
  DE: "DEU", DK: "DNK", EE: "EST", ES: "ESP", FI: "FIN", FR: "FRA", GB: "GBR", GR: "GRC", HR: "HRV",
  HU: "HUN", IE: "IRL", IN: "IND", IS: "ISL", IT: "ITA", LI: "LIE", LT: "LTU", LU: "LUX", LV: "LVA",
  MT: "MLT", NL: "NLD", NO: "NOR", NZ: "NZL", PL: "POL", PT: "PRT", RO: "ROU", SE: "SWE", SI: "SVN",
  SK: "SVK", US: "USA",
};

/** ISO 3166-1 alpha-3 as printed in MRZs; Germany is "D" in ICAO 9303 documents. */
export const alpha3 = (code: string) => ALPHA3[code.toUpperCase()] ?? code.toUpperCase();
export const icaoState = (code: string) => (code.toUpperCase() === "DE" ? "D" : alpha3(code));

/** Upper-case Latin letters as on a document's machine-readable zone. */
export function latinUpper(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "SS")
    .replace(/[æÆ]/g, "AE")
    .replace(/[øØ]/g, "O")
    .replace(/[łŁ]/g, "L")
    .toUpperCase();
}

export const mrzName = (value: string) => latinUpper(value).replace(/[^A-Z]+/g, "<");
/** "1990-04-01" → "19900401". */
export const compactDate = (iso: string) => iso.replaceAll("-", "");

/** "1990-04-01" → { year: "1990", month: "04", day: "01" }. */
export function dateParts(iso: string): { year: string; month: string; day: string } {
  const [year = "", month = "", day = ""] = iso.split("-");
  return { year, month, day };
}

export const sexLetter = (gender: unknown) => (gender === "female" ? "F" : gender === "male" ? "M" : "X");

/** "Stephansplatz 3" → ["Stephansplatz", "3"]; "10 Downing Street" → ["Downing Street", "10"]. */
export function splitStreet(street: string): { name: string; number?: string } {
  const trailing = /^(.*\D)\s+(\d+\w*)$/.exec(street);
  if (trailing) return { name: trailing[1]!, number: trailing[2]! };
  const leading = /^(\d+\w*)\s+(.*)$/.exec(street);
  if (leading) return { name: leading[2]!, number: leading[1]! };
  return { name: street };
}

const EIDAS_LOA = ["http://eidas.europa.eu/LoA/NotNotified/low", "low", "substantial", "high"].map((l, i) =>
  i === 0 ? l : `http://eidas.europa.eu/LoA/${l}`,
);
export const eidasLoa = (loa: number) => EIDAS_LOA[Math.max(1, Math.min(3, loa))]!;

// ---------------------------------------------------------------------------------------------
// national identity numbers, derived from the birthdate so they stay consistent with it

function luhnDigit(digits: string): string {
  let sum = 0;
  [...digits].reverse().forEach((d, i) => {
    let n = Number(d) * (i % 2 === 0 ? 2 : 1);
    if (n > 9) n -= 9;
    sum += n;
  });
  return String((10 - (sum % 10)) % 10);
}

/** Swedish personnummer, 12 digits: YYYYMMDD + birth number + Luhn check digit. */
export function swedishPersonalNumber(birthdate: string, ctx: TProfileContext): string {
  // the third birth-number digit is odd for men, even for women
  const digits = ctx.digits("personnummer", 3);
  const last = (Number(digits[2]) & ~1) + (ctx.sex === "male" ? 1 : 0);
  const serial = `${digits.slice(0, 2)}${last}`;
  const short = compactDate(birthdate).slice(2) + serial;
  return compactDate(birthdate) + serial + luhnDigit(short);
}

/** Finnish henkilötunnus: DDMMYY, century sign, individual number, check character. */
export function finnishHetu(birthdate: string, ctx: TProfileContext): string {
  const { year: y, month: m, day: d } = dateParts(birthdate);
  const century = Number(y) >= 2000 ? "A" : "-";
  // the individual number is odd for men, even for women
  const n = 2 + (Number(ctx.digits("hetu", 3)) % 896);
  const individual = String((n & ~1) + (ctx.sex === "male" ? 1 : 0)).padStart(3, "0");
  const check = "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(`${d}${m}${y.slice(2)}${individual}`) % 31];
  return `${d}${m}${y.slice(2)}${century}${individual}${check}`;
}

/** Estonian isikukood: century/sex digit, YYMMDD, serial, check digit. */
export function estonianPersonalCode(birthdate: string, ctx: TProfileContext): string {
  const { year } = dateParts(birthdate);
  // 3/4: born 1900–1999, 5/6: 2000–2099; odd for men, even for women
  const first = (Number(year) >= 2000 ? 5 : 3) + (ctx.sex === "male" ? 0 : 1);
  const body = `${first}${compactDate(birthdate).slice(2)}${ctx.digits("isikukood", 3)}`;
  const weigh = (weights: number[]) => [...body].reduce((s, d, i) => s + Number(d) * weights[i]!, 0) % 11;
  let check = weigh([1, 2, 3, 4, 5, 6, 7, 8, 9, 1]);
  if (check === 10) check = weigh([3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 10;
  return `${body}${check}`;
}

/** Spanish DNI number: 8 digits and the mod-23 control letter. */
export function spanishDni(ctx: TProfileContext): string {
  const number = ctx.digits("dni", 8);
  return `${number}${"TRWAGMYFPDXBNJZSQVHLCKE"[Number(number) % 23]}`;
}
