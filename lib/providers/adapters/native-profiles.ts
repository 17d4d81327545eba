/**
 * How each catalog provider talks natively, for the sandbox simulator: the attribute names and
 * value formats of its real upstream answer (provenance `credentials[].claims`) and the evidence
 * it hands out (provenance `evidence.token`).
 * Rules:
 * - every catalog provider has a profile (checked by the simulator's tests);
 * - a raw answer carries exactly the person data of the disclosed OIDC claims, under the scheme's
 *   own names and formats (MRZ, BSI eID-Server, BRP, BankID, OIOSAML, SPID, eIDAS, X.509 subject,
 *   PID, GOV.UK vocabulary, …) — nothing the source did not disclose;
 * - match providers answer with their verdicts only (booleans or the scheme's own verdict codes),
 *   keyed by their native field names, never with the register's values;
 * - evidence values are strings; ids and numbers are derived deterministically from the provider,
 *   the identity and an optional reference, so a simulated answer is reproducible; timestamps
 *   appear only when the caller gives the moment of authentication.
 */
import { createHash } from "node:crypto";
import type { TProviderDefinition } from "../catalog";
import type { TClaimName } from "../claims";
import type { TIdentityClaims } from "../identities";
import type { TMatchResult } from "./types";

export interface TProfileContext {
  provider: TProviderDefinition;
  /** the disclosed claims (OIDC names) */
  claims: TIdentityClaims;
  loa: number;
  /** the person's sex where a national number encodes it, even when not disclosed */
  sex?: "female" | "male";
  /** moment of authentication, when known */
  at?: Date;
  /** deterministic lower-case hex of `length` characters for `label` */
  hex(label: string, length: number): string;
  /** deterministic decimal digits */
  digits(label: string, length: number): string;
  uuid(label: string): string;
  pick<T>(label: string, list: readonly T[]): T;
}

export interface TDisclosureProfile {
  /** the top-level native attribute that carries each OIDC claim (absent: the scheme has none) */
  keys: Partial<Record<TClaimName, string>>;
  raw(ctx: TProfileContext): Record<string, unknown>;
  evidence(ctx: TProfileContext): Record<string, string>;
}

export interface TMatchProfile {
  /** the native verdict key of each comparable OIDC field (absent: the scheme reports none) */
  keys: Partial<Record<TClaimName, string>>;
  answer(result: TMatchResult, ctx: TProfileContext): Record<string, unknown>;
  evidence(ctx: TProfileContext): Record<string, string>;
}

export function profileContext(input: {
  provider: TProviderDefinition;
  claims: TIdentityClaims;
  loa: number;
  seed: string;
  sex?: "female" | "male";
  at?: Date;
}): TProfileContext {
  const hex = (label: string, length: number) => {
    let out = "";
    for (let i = 0; out.length < length; i++) {
      out += createHash("sha256").update(`${input.seed}\u0000${label}\u0000${i}`).digest("hex");
    }
    return out.slice(0, length);
  };
  return {
    provider: input.provider,
    claims: input.claims,
    loa: input.loa,
    ...(input.sex ? { sex: input.sex } : {}),
    ...(input.at ? { at: input.at } : {}),
    hex,
    digits: (label, length) =>
      [...hex(label, length)].map((c) => String(Number.parseInt(c, 16) % 10)).join(""),
    uuid: (label) => {
      const h = hex(label, 32);
      const variant = "89ab"[Number.parseInt(h[16]!, 16) % 4];
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    pick: (label, list) => list[Number.parseInt(hex(label, 8), 16) % list.length]!,
  };
}

// ---------------------------------------------------------------------------------------------
// value helpers

interface TAddressClaim {
  formatted?: string;
  street_address?: string;
  postal_code?: string;
  locality?: string;
  country?: string;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const addressOf = (claims: TIdentityClaims): TAddressClaim | undefined =>
  claims.address && typeof claims.address === "object" ? (claims.address as TAddressClaim) : undefined;

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
const icaoState = (code: string) => (code.toUpperCase() === "DE" ? "D" : alpha3(code));

/** Upper-case Latin letters as on a document's machine-readable zone. */
function latinUpper(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "SS")
    .replace(/[æÆ]/g, "AE")
    .replace(/[øØ]/g, "O")
    .replace(/[łŁ]/g, "L")
    .toUpperCase();
}

const mrzName = (value: string) => latinUpper(value).replace(/[^A-Z]+/g, "<");
const compactDate = (iso: string) => iso.replaceAll("-", "");
const [YEAR, MONTH, DAY] = [0, 1, 2];
const dateParts = (iso: string) => iso.split("-");
const sexLetter = (gender: unknown) => (gender === "female" ? "F" : gender === "male" ? "M" : "X");

/** "Stephansplatz 3" → ["Stephansplatz", "3"]; "10 Downing Street" → ["Downing Street", "10"]. */
function splitStreet(street: string): { name: string; number?: string } {
  const trailing = /^(.*\D)\s+(\d+\w*)$/.exec(street);
  if (trailing) return { name: trailing[1]!, number: trailing[2]! };
  const leading = /^(\d+\w*)\s+(.*)$/.exec(street);
  if (leading) return { name: leading[2]!, number: leading[1]! };
  return { name: street };
}

const EIDAS_LOA = ["http://eidas.europa.eu/LoA/NotNotified/low", "low", "substantial", "high"].map((l, i) =>
  i === 0 ? l : `http://eidas.europa.eu/LoA/${l}`,
);
const eidasLoa = (loa: number) => EIDAS_LOA[Math.max(1, Math.min(3, loa))]!;

function compact(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((e): e is [string, string] => e[1] !== undefined));
}

const iso = (ctx: TProfileContext) => ctx.at?.toISOString();

/**
 * A profile whose answer maps each claim to one native attribute (with an optional format
 * conversion) plus attributes derived from the claims.
 */
function flatProfile(spec: {
  keys: Partial<Record<TClaimName, string>>;
  encode?: Partial<Record<TClaimName, (value: unknown, ctx: TProfileContext) => unknown>>;
  extra?: (ctx: TProfileContext) => Record<string, unknown>;
  evidence: (ctx: TProfileContext) => Record<string, string | undefined>;
}): TDisclosureProfile {
  return {
    keys: spec.keys,
    raw(ctx) {
      const out: Record<string, unknown> = {};
      for (const [claim, key] of Object.entries(spec.keys) as [TClaimName, string][]) {
        const value = ctx.claims[claim];
        if (value === undefined || value === null) continue;
        const encoded = spec.encode?.[claim] ? spec.encode[claim](value, ctx) : value;
        if (encoded !== undefined) out[key] = encoded;
      }
      return { ...out, ...spec.extra?.(ctx) };
    },
    evidence: (ctx) => compact(spec.evidence(ctx)),
  };
}

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
function swedishPersonalNumber(birthdate: string, ctx: TProfileContext): string {
  // the third birth-number digit is odd for men, even for women
  const digits = ctx.digits("personnummer", 3);
  const last = (Number(digits[2]) & ~1) + (ctx.sex === "male" ? 1 : 0);
  const serial = `${digits.slice(0, 2)}${last}`;
  const short = compactDate(birthdate).slice(2) + serial;
  return compactDate(birthdate) + serial + luhnDigit(short);
}

/** Finnish henkilötunnus: DDMMYY, century sign, individual number, check character. */
function finnishHetu(birthdate: string, ctx: TProfileContext): string {
  const [y, m, d] = dateParts(birthdate) as [string, string, string];
  const century = Number(y) >= 2000 ? "A" : "-";
  // the individual number is odd for men, even for women
  const n = 2 + (Number(ctx.digits("hetu", 3)) % 896);
  const individual = String((n & ~1) + (ctx.sex === "male" ? 1 : 0)).padStart(3, "0");
  const check = "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(`${d}${m}${y.slice(2)}${individual}`) % 31];
  return `${d}${m}${y.slice(2)}${century}${individual}${check}`;
}

/** Estonian isikukood: century/sex digit, YYMMDD, serial, check digit. */
function estonianPersonalCode(birthdate: string, ctx: TProfileContext): string {
  const [y] = dateParts(birthdate) as [string];
  // 3/4: born 1900–1999, 5/6: 2000–2099; odd for men, even for women
  const first = (Number(y) >= 2000 ? 5 : 3) + (ctx.sex === "male" ? 0 : 1);
  const body = `${first}${compactDate(birthdate).slice(2)}${ctx.digits("isikukood", 3)}`;
  const weigh = (weights: number[]) => [...body].reduce((s, d, i) => s + Number(d) * weights[i]!, 0) % 11;
  let check = weigh([1, 2, 3, 4, 5, 6, 7, 8, 9, 1]);
  if (check === 10) check = weigh([3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 10;
  return `${body}${check}`;
}

/** Spanish DNI number: 8 digits and the mod-23 control letter. */
function spanishDni(ctx: TProfileContext): string {
  const number = ctx.digits("dni", 8);
  return `${number}${"TRWAGMYFPDXBNJZSQVHLCKE"[Number(number) % 23]}`;
}

// ---------------------------------------------------------------------------------------------
// disclosure profiles

const passport = flatProfile({
  keys: {
    family_name: "primaryIdentifier",
    given_name: "secondaryIdentifier",
    name: "nameOfHolder",
    birthdate: "dateOfBirth",
    nationality: "nationality",
    gender: "sex",
  },
  encode: {
    family_name: (v) => latinUpper(String(v)),
    given_name: (v) => latinUpper(String(v)),
    name: (_v, ctx) =>
      `${mrzName(str(ctx.claims.family_name) ?? "")}<<${mrzName(str(ctx.claims.given_name) ?? "")}`,
    birthdate: (v) => compactDate(String(v)).slice(2),
    nationality: (v) => alpha3(String(v)),
    gender: sexLetter,
  },
  extra: () => ({ documentCode: "P" }),
  evidence: (ctx) => ({
    transaction_id: ctx.uuid("transaction"),
    document_number: `*****${ctx.digits("document", 4)}`,
    issuing_state: str(ctx.claims.nationality) && alpha3(str(ctx.claims.nationality)!),
    passive_authentication: "passed",
    chip_authentication: "passed",
    document_signer_serial: ctx.hex("ds-certificate", 16).toUpperCase(),
    read_at: iso(ctx),
  }),
});

const BSI_LOA = ["normal", "normal", "substantiell", "hoch"];
const germanEid = flatProfile({
  keys: {
    given_name: "GivenNames",
    family_name: "FamilyNames",
    birthdate: "DateOfBirth",
    nationality: "Nationality",
    address: "PlaceOfResidence",
  },
  encode: {
    birthdate: (v) => ({ DateString: compactDate(String(v)), DateValue: String(v) }),
    nationality: (v) => icaoState(String(v)),
    address: (v) => {
      const a = v as TAddressClaim;
      return {
        StructuredPlace: {
          Street: a.street_address,
          City: a.locality,
          Country: a.country ? icaoState(a.country) : undefined,
          ZipCode: a.postal_code,
        },
      };
    },
  },
  extra: () => ({ DocumentType: "ID", IssuingState: "D" }),
  evidence: (ctx) => ({
    transaction_id: ctx.uuid("transaction"),
    restricted_id: ctx.hex("restricted-id", 64).toUpperCase(),
    level_of_assurance: `http://bsi.bund.de/eID/LoA/${BSI_LOA[ctx.loa] ?? "normal"}`,
    result_major: "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok",
    timestamp: iso(ctx),
  }),
});

const SAML_CLASSES = [
  "PasswordProtectedTransport",
  "PasswordProtectedTransport",
  "MobileTwoFactorContract",
  "Smartcard",
];
const DIGID_LEVEL = ["basis", "basis", "substantieel", "hoog"];
const digid = flatProfile({
  keys: { given_name: "voornamen", family_name: "geslachtsnaam", birthdate: "geboortedatum" },
  encode: { birthdate: (v) => compactDate(String(v)) },
  evidence: (ctx) => ({
    assertion_id: `_${ctx.hex("assertion", 40)}`,
    authn_context_class: `urn:oasis:names:tc:SAML:2.0:ac:classes:${SAML_CLASSES[ctx.loa] ?? "PasswordProtectedTransport"}`,
    digid_level: DIGID_LEVEL[ctx.loa] ?? "basis",
    issue_instant: iso(ctx),
  }),
});

const swedishBankId = flatProfile({
  keys: { given_name: "givenName", family_name: "surname", name: "name", birthdate: "personalNumber" },
  encode: { birthdate: (v, ctx) => swedishPersonalNumber(String(v), ctx) },
  evidence: (ctx) => ({
    order_ref: ctx.uuid("order"),
    status: "complete",
    signature_sha256: ctx.hex("signature", 64),
    ocsp_response_sha256: ctx.hex("ocsp", 64),
    completed_at: iso(ctx),
  }),
});

const norwegianBankId = flatProfile({
  keys: { given_name: "given_name", family_name: "family_name", name: "name", birthdate: "birthdate" },
  evidence: (ctx) => ({
    jti: ctx.uuid("jti"),
    acr: "urn:bankid:bid",
    amr: "BID",
    bankid_altsub: `9578-6000-4-${ctx.digits("altsub", 6)}`,
    auth_time: ctx.at ? String(Math.floor(ctx.at.getTime() / 1000)) : undefined,
  }),
});

const NSIS = ["Low", "Low", "Substantial", "High"];
const DK = "https://data.gov.dk/model/core/eid";
const mitid = flatProfile({
  keys: {
    given_name: `${DK}/firstName`,
    family_name: `${DK}/lastName`,
    name: `${DK}/fullName`,
    birthdate: `${DK}/dateOfBirth`,
  },
  evidence: (ctx) => ({
    assertion_id: `_${ctx.hex("assertion", 32)}`,
    loa: `https://data.gov.dk/concept/core/nsis/loa/${NSIS[ctx.loa] ?? "Low"}`,
    ial: `https://data.gov.dk/concept/core/nsis/ial/${NSIS[ctx.loa] ?? "Low"}`,
    mitid_uuid: ctx.uuid("mitid"),
    issue_instant: iso(ctx),
  }),
});

const ftn = flatProfile({
  keys: { given_name: "given_name", family_name: "family_name", name: "name", birthdate: "birthdate" },
  extra: (ctx) => (str(ctx.claims.birthdate) ? { hetu: finnishHetu(str(ctx.claims.birthdate)!, ctx) } : {}),
  evidence: (ctx) => ({
    identity_provider: ctx.pick("idp", ["Nordea", "OP", "Danske Bank", "S-Pankki", "Elisa Mobiilivarmenne"]),
    acr: `http://ftn.ficora.fi/2017/loa${Math.max(2, ctx.loa)}`,
    transaction_id: ctx.uuid("transaction"),
    auth_time: ctx.at ? String(Math.floor(ctx.at.getTime() / 1000)) : undefined,
  }),
});

const itsme = flatProfile({
  keys: {
    given_name: "given_name",
    family_name: "family_name",
    name: "name",
    birthdate: "birthdate",
    gender: "gender",
    email: "email",
    phone_number: "phone_number",
    address: "address",
    nationality: "http://itsme.services/v2/claim/nationality",
  },
  encode: {
    address: (v) => {
      const a = v as TAddressClaim;
      return {
        street_address: a.street_address,
        postal_code: a.postal_code,
        locality: a.locality,
        country: a.country,
      };
    },
  },
  evidence: (ctx) => ({
    transaction_id: ctx.uuid("transaction"),
    acr: `http://itsme.services/V2/claim/acr_${ctx.loa >= 3 ? "advanced" : "basic"}`,
    auth_time: ctx.at ? String(Math.floor(ctx.at.getTime() / 1000)) : undefined,
  }),
});

function spidProfile(idps: readonly string[]): TDisclosureProfile {
  return flatProfile({
    keys: {
      given_name: "name",
      family_name: "familyName",
      birthdate: "dateOfBirth",
      gender: "gender",
      email: "email",
      phone_number: "mobilePhone",
      address: "address",
    },
    encode: {
      gender: sexLetter,
      address: (v) => {
        const a = v as TAddressClaim;
        return [a.street_address, a.postal_code, a.locality].filter(Boolean).join(" ");
      },
    },
    evidence: (ctx) => ({
      assertion_id: `_${ctx.hex("assertion", 40)}`,
      authn_context: `https://www.spid.gov.it/SpidL${Math.max(1, ctx.loa)}`,
      idp_entity_id: ctx.pick("idp", idps),
      issue_instant: iso(ctx),
    }),
  });
}

const FC_ACR = ["eidas1", "eidas1", "eidas2", "eidas3"];
const franceConnect = flatProfile({
  keys: {
    given_name: "given_name",
    family_name: "family_name",
    birthdate: "birthdate",
    gender: "gender",
    email: "email",
  },
  evidence: (ctx) => ({
    idp_id: ctx.uuid("idp"),
    idp_acr: FC_ACR[ctx.loa] ?? "eidas1",
    acr: FC_ACR[ctx.loa] ?? "eidas1",
    transaction_id: ctx.hex("transaction", 32),
    auth_time: ctx.at ? String(Math.floor(ctx.at.getTime() / 1000)) : undefined,
  }),
});

const EIDAS = "http://eidas.europa.eu/attributes/naturalperson";
const clave = flatProfile({
  keys: {
    given_name: `${EIDAS}/CurrentGivenName`,
    family_name: `${EIDAS}/CurrentFamilyName`,
    birthdate: `${EIDAS}/DateOfBirth`,
  },
  evidence: (ctx) => ({
    assertion_id: `_${ctx.hex("assertion", 40)}`,
    loa: eidasLoa(ctx.loa),
    clave_method: ctx.loa <= 1 ? "Cl@ve PIN" : "Cl@ve Móvil",
    issue_instant: iso(ctx),
  }),
});

const dnie = flatProfile({
  keys: {
    given_name: "nombre",
    family_name: "apellidos",
    birthdate: "fechaNacimiento",
    nationality: "nacionalidad",
    gender: "sexo",
    address: "domicilio",
  },
  encode: {
    given_name: (v) => latinUpper(String(v)),
    family_name: (v) => latinUpper(String(v)),
    birthdate: (v) => {
      const p = dateParts(String(v));
      return `${p[DAY]}-${p[MONTH]}-${p[YEAR]}`;
    },
    nationality: (v) => alpha3(String(v)),
    gender: sexLetter,
    address: (v) => {
      const a = v as TAddressClaim;
      return { calle: a.street_address, codigoPostal: a.postal_code, poblacion: a.locality };
    },
  },
  evidence: (ctx) => ({
    transaction_id: ctx.uuid("transaction"),
    document_number: `*****${spanishDni(ctx).slice(5)}`,
    passive_authentication: "passed",
    chip_authentication: "passed",
    read_at: iso(ctx),
  }),
});

function x509Subject(withNationality: boolean) {
  const code = (ctx: TProfileContext) =>
    str(ctx.claims.birthdate) ? estonianPersonalCode(str(ctx.claims.birthdate)!, ctx) : undefined;
  return {
    keys: {
      given_name: "GN",
      family_name: "SN",
      name: "CN",
      birthdate: "serialNumber",
      ...(withNationality ? { nationality: "C" } : {}),
    },
    encode: {
      given_name: (v: unknown) => String(v).toUpperCase(),
      family_name: (v: unknown) => String(v).toUpperCase(),
      name: (_v: unknown, ctx: TProfileContext) =>
        [str(ctx.claims.family_name), str(ctx.claims.given_name), code(ctx)]
          .filter(Boolean)
          .join(",")
          .toUpperCase(),
      birthdate: (_v: unknown, ctx: TProfileContext) => `PNOEE-${code(ctx)}`,
    },
    code,
  };
}

const smartIdSubject = x509Subject(false);
const smartId = flatProfile({
  ...smartIdSubject,
  evidence: (ctx) => ({
    session_id: ctx.uuid("session"),
    document_number: `PNOEE-${smartIdSubject.code(ctx) ?? ctx.digits("document", 11)}-${ctx.hex("doc", 4).toUpperCase()}-Q`,
    certificate_level: "QUALIFIED",
    interaction: "displayTextAndPIN",
    signature_algorithm: "sha512WithRSAEncryption",
    completed_at: iso(ctx),
  }),
});

const estonianIdCard = flatProfile({
  ...x509Subject(true),
  evidence: (ctx) => ({
    certificate_serial: ctx.hex("certificate", 32),
    certificate_issuer: "CN=ESTEID2018,organizationIdentifier=NTREE-10747013,O=SK ID Solutions AS,C=EE",
    ocsp_status: "good",
    auth_token_format: "web-eid:1.0",
    authenticated_at: iso(ctx),
  }),
});

const mobywatel = flatProfile({
  keys: {
    given_name: "imie",
    family_name: "nazwisko",
    birthdate: "dataUrodzenia",
    nationality: "obywatelstwo",
  },
  encode: {
    given_name: (v) => String(v).toUpperCase(),
    family_name: (v) => String(v).toUpperCase(),
    nationality: (v) => alpha3(String(v)),
  },
  evidence: (ctx) => ({
    document_type: "mDowód",
    document_number: `***${ctx.digits("document", 6)}`,
    transaction_id: ctx.uuid("transaction"),
    signature_ref: `sha256:${ctx.hex("signature", 64)}`,
    presented_at: iso(ctx),
  }),
});

const idAustria = flatProfile({
  keys: {
    given_name: "urn:oid:2.5.4.42",
    family_name: "urn:oid:1.2.40.0.10.2.1.1.261.20",
    birthdate: "urn:oid:1.2.40.0.10.2.1.1.55",
    address: "urn:eidgvat:attributes.mainAddress",
  },
  encode: {
    address: (v) => {
      const a = v as TAddressClaim;
      const street = splitStreet(a.street_address ?? "");
      return {
        Strassenname: street.name,
        Hausnummer: street.number,
        Postleitzahl: a.postal_code,
        Gemeindebezeichnung: a.locality,
        Staat: a.country ? alpha3(a.country) : undefined,
      };
    },
  },
  evidence: (ctx) => ({
    bpk: `GH:${Buffer.from(ctx.hex("bpk", 40), "hex").toString("base64")}`,
    eid_ial: eidasLoa(ctx.loa),
    transaction_id: ctx.uuid("transaction"),
    issued_at: iso(ctx),
  }),
});

const swissId = flatProfile({
  keys: {
    given_name: "given_name",
    family_name: "family_name",
    birthdate: "birthdate",
    gender: "gender",
    email: "email",
    email_verified: "email_verified",
    phone_number: "phone_number",
    address: "address",
  },
  evidence: (ctx) => ({
    qor: ctx.loa >= 2 ? "qor1" : "qor0",
    loa: `loa-${Math.max(1, ctx.loa)}`,
    transaction_id: ctx.uuid("transaction"),
    auth_time: ctx.at ? String(Math.floor(ctx.at.getTime() / 1000)) : undefined,
  }),
});

const UK_CORE = "https://vocab.account.gov.uk/v1/coreIdentity";
const UK_ADDRESS = "https://vocab.account.gov.uk/v1/address";
const govUkOneLogin: TDisclosureProfile = {
  keys: {
    given_name: UK_CORE,
    family_name: UK_CORE,
    name: UK_CORE,
    birthdate: UK_CORE,
    email: "email",
    email_verified: "email_verified",
    phone_number: "phone_number",
    address: UK_ADDRESS,
  },
  raw(ctx) {
    const c = ctx.claims;
    const out: Record<string, unknown> = {};
    for (const key of ["email", "email_verified", "phone_number"] as const)
      if (c[key] !== undefined) out[key] = c[key];
    const nameParts = [
      ...(str(c.given_name) ? [{ type: "GivenName", value: c.given_name }] : []),
      ...(str(c.family_name) ? [{ type: "FamilyName", value: c.family_name }] : []),
    ];
    const core: Record<string, unknown> = {};
    if (nameParts.length > 0) core.name = [{ nameParts }];
    if (str(c.birthdate)) core.birthDate = [{ value: c.birthdate }];
    if (Object.keys(core).length > 0) out[UK_CORE] = core;
    const a = addressOf(c);
    if (a) {
      const street = splitStreet(a.street_address ?? "");
      out[UK_ADDRESS] = [
        {
          buildingNumber: street.number,
          streetName: street.name,
          addressLocality: a.locality,
          postalCode: a.postal_code,
          addressCountry: a.country,
        },
      ];
    }
    return out;
  },
  evidence: (ctx) =>
    compact({
      vot: ctx.loa >= 2 ? "P2" : "P1",
      vtm: "https://oidc.account.gov.uk/trustmark",
      core_identity_jti: ctx.uuid("core-identity"),
      issued_at: iso(ctx),
    }),
};

const eudiPid = flatProfile({
  keys: {
    given_name: "given_name",
    family_name: "family_name",
    birthdate: "birth_date",
    nationality: "nationality",
    gender: "sex",
    address: "resident_address",
  },
  encode: {
    nationality: (v) => [String(v)],
    // ISO/IEC 5218
    gender: (v) => (v === "male" ? 1 : v === "female" ? 2 : 0),
    address: (v) => (v as TAddressClaim).formatted,
  },
  extra: (ctx) => {
    const a = addressOf(ctx.claims);
    if (!a) return {};
    return {
      resident_street: a.street_address,
      resident_postal_code: a.postal_code,
      resident_city: a.locality,
      resident_country: a.country,
    };
  },
  evidence: (ctx) => ({
    credential_format: "mso_mdoc",
    doctype: "eu.europa.ec.eudi.pid.1",
    issuing_country: str(ctx.claims.nationality),
    issuer_signature: "valid",
    device_signature: "valid",
    status: "valid",
    presentation_id: ctx.uuid("presentation"),
    presented_at: iso(ctx),
  }),
});

const digitalIdApp = flatProfile({
  keys: {
    name: "full_name",
    given_name: "given_names",
    family_name: "family_name",
    birthdate: "date_of_birth",
    nationality: "nationality",
    gender: "gender",
    address: "postal_address",
    email: "email_address",
    phone_number: "phone_number",
  },
  encode: {
    nationality: (v) => alpha3(String(v)),
    gender: (v) => String(v).toUpperCase(),
    address: (v) => {
      const a = v as TAddressClaim;
      return [a.street_address, a.locality, a.postal_code].filter(Boolean).join("\n");
    },
  },
  evidence: (ctx) => ({
    receipt_id: Buffer.from(ctx.hex("receipt", 64), "hex").toString("base64"),
    document_type: "PASSPORT",
    document_country: str(ctx.claims.nationality) && alpha3(str(ctx.claims.nationality)!),
    attestation_ref: ctx.uuid("attestation"),
    timestamp: iso(ctx),
  }),
});

export const DISCLOSURE_PROFILES: Readonly<Record<string, TDisclosureProfile>> = {
  passport,
  de_eid: germanEid,
  nl_digid: digid,
  se_bankid: swedishBankId,
  no_bankid: norwegianBankId,
  dk_mitid: mitid,
  fi_ftn: ftn,
  be_itsme: itsme,
  it_spid: spidProfile([
    "https://posteid.poste.it",
    "https://identity.infocert.it",
    "https://loginspid.aruba.it",
  ]),
  it_cie: spidProfile(["https://idserver.servizicie.interno.gov.it/idp/profile/SAML2/POST/SSO"]),
  fr_franceconnect: franceConnect,
  es_clave: clave,
  es_dnie: dnie,
  ee_smart_id: smartId,
  ee_id_card: estonianIdCard,
  pl_mobywatel: mobywatel,
  at_id_austria: idAustria,
  ch_swissid: swissId,
  uk_gov_one_login: govUkOneLogin,
  eudi_wallet: eudiPid,
  digital_id_app: digitalIdApp,
};

// ---------------------------------------------------------------------------------------------
// match profiles

const aadhaar: TMatchProfile = {
  keys: {},
  // Aadhaar demographic authentication answers one yes/no; error 100 = "Pi (basic) attributes of
  // demographic data did not match".
  answer: (result) => (result.matched ? { ret: "y" } : { ret: "n", err: "100" }),
  evidence: (ctx) =>
    compact({
      txn: `UKC:${ctx.hex("txn", 24)}`,
      code: ctx.hex("code", 32),
      auth_type: "demographic",
      uidai_signature: `sha256:${ctx.hex("signature", 64)}`,
      ts: iso(ctx),
    }),
};

const bankMatch: TMatchProfile = {
  keys: {
    name: "nameMatch",
    given_name: "firstNameMatch",
    family_name: "lastNameMatch",
    birthdate: "dateOfBirthMatch",
    address: "addressMatch",
  },
  answer(result) {
    const out: Record<string, unknown> = {};
    for (const field of result.submitted_fields) {
      const key = bankMatch.keys[field as TClaimName];
      if (key) out[key] = result.details[field]?.matched === true;
    }
    return out;
  },
  evidence: (ctx) =>
    compact({
      consent_id: ctx.uuid("consent"),
      aspsp_bic: ctx.pick("bank", [
        "COBADEFFXXX",
        "INGDDEFFXXX",
        "BNPAFRPPXXX",
        "CAIXESBBXXX",
        "UNCRITMMXXX",
      ]),
      account_iban_last4: ctx.digits("iban", 4),
      checked_at: iso(ctx),
    }),
};

// CAMARA KYC Match: "true" | "false" | "not_available", plus a score 0–100 for a "false" name.
const camaraMatch: TMatchProfile = {
  keys: {
    name: "nameMatch",
    given_name: "givenNameMatch",
    family_name: "familyNameMatch",
    birthdate: "birthdateMatch",
    address: "addressMatch",
    email: "emailMatch",
  },
  answer(result, ctx) {
    const out: Record<string, unknown> = {};
    for (const field of result.submitted_fields) {
      const key = camaraMatch.keys[field as TClaimName];
      const detail = result.details[field];
      if (!key || !detail) continue;
      const available = ctx.claims[field as TClaimName] !== undefined;
      out[key] = !available ? "not_available" : detail.matched ? "true" : "false";
      if (available && !detail.matched && detail.similarity !== undefined)
        out[`${key}Score`] = detail.similarity;
    }
    return out;
  },
  evidence: (ctx) =>
    compact({
      x_correlator: ctx.uuid("correlator"),
      network_operator: ctx.pick("mccmnc", ["21407", "22210", "26201", "20801", "23415", "72406"]),
      checked_at: iso(ctx),
    }),
};

export const MATCH_PROFILES: Readonly<Record<string, TMatchProfile>> = {
  in_aadhaar_match: aadhaar,
  bank_data_match: bankMatch,
  mno_kyc_match: camaraMatch,
};
