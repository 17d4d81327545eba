/**
 * Native profiles of the document and wallet schemes: what the chip of an identity document
 * (ICAO 9303 passport, German eID through a BSI eID-Server, Spanish DNIe, Polish mObywatel) or a
 * wallet credential (EUDI PID, a digital identity app's attested document) hands out, under the
 * scheme's own attribute names and formats (MRZ upper case, ICAO country codes, ISO/IEC 5218 sex).
 */
import { authenticatedAt, flatProfile, type TProfileContext } from "./native-context";
import {
  addressClaim,
  addressOf,
  alpha3,
  compactDate,
  dateParts,
  icaoState,
  latinUpper,
  mrzName,
  sexLetter,
  spanishDni,
  str,
} from "./native-formats";

const issuingState = (ctx: TProfileContext) => {
  const nationality = str(ctx.claims.nationality);
  return nationality && alpha3(nationality);
};

export const passport = flatProfile({
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
    issuing_state: issuingState(ctx),
    passive_authentication: "passed",
    chip_authentication: "passed",
    document_signer_serial: ctx.hex("ds-certificate", 16).toUpperCase(),
    read_at: authenticatedAt(ctx),
  }),
});

const BSI_LOA = ["normal", "normal", "substantiell", "hoch"];
export const germanEid = flatProfile({
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
      const a = addressClaim(v);
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
    timestamp: authenticatedAt(ctx),
  }),
});

export const dnie = flatProfile({
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
      const { year, month, day } = dateParts(String(v));
      return `${day}-${month}-${year}`;
    },
    nationality: (v) => alpha3(String(v)),
    gender: sexLetter,
    address: (v) => {
      const a = addressClaim(v);
      return { calle: a.street_address, codigoPostal: a.postal_code, poblacion: a.locality };
    },
  },
  evidence: (ctx) => ({
    transaction_id: ctx.uuid("transaction"),
    document_number: `*****${spanishDni(ctx).slice(5)}`,
    passive_authentication: "passed",
    chip_authentication: "passed",
    read_at: authenticatedAt(ctx),
  }),
});

export const mobywatel = flatProfile({
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
    presented_at: authenticatedAt(ctx),
  }),
});

export const eudiPid = flatProfile({
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
    address: (v) => addressClaim(v).formatted,
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
    presented_at: authenticatedAt(ctx),
  }),
});

export const digitalIdApp = flatProfile({
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
      const a = addressClaim(v);
      return [a.street_address, a.locality, a.postal_code].filter(Boolean).join("\n");
    },
  },
  evidence: (ctx) => ({
    receipt_id: Buffer.from(ctx.hex("receipt", 64), "hex").toString("base64"),
    document_type: "PASSPORT",
    document_country: issuingState(ctx),
    attestation_ref: ctx.uuid("attestation"),
    timestamp: authenticatedAt(ctx),
  }),
});
