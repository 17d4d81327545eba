/**
 * Native profiles of the SAML federations: DigiD (NL), MitID through OIOSAML (DK), SPID and CIE
 * (IT), Cl@ve (ES, eIDAS natural-person attributes) and ID Austria. Their answers are assertion
 * attributes under the scheme's names or URIs; their evidence names the assertion, the
 * authentication context or level of the scheme, and the issue instant.
 */
import { authenticatedAt, flatProfile, type TDisclosureProfile } from "./native-context";
import { addressClaim, alpha3, compactDate, eidasLoa, sexLetter, splitStreet } from "./native-formats";

const SAML_CLASSES = [
  "PasswordProtectedTransport",
  "PasswordProtectedTransport",
  "MobileTwoFactorContract",
  "Smartcard",
];
const DIGID_LEVEL = ["basis", "basis", "substantieel", "hoog"];
export const digid = flatProfile({
  keys: { given_name: "voornamen", family_name: "geslachtsnaam", birthdate: "geboortedatum" },
  encode: { birthdate: (v) => compactDate(String(v)) },
  evidence: (ctx) => ({
    assertion_id: `_${ctx.hex("assertion", 40)}`,
    authn_context_class: `urn:oasis:names:tc:SAML:2.0:ac:classes:${SAML_CLASSES[ctx.loa] ?? "PasswordProtectedTransport"}`,
    digid_level: DIGID_LEVEL[ctx.loa] ?? "basis",
    issue_instant: authenticatedAt(ctx),
  }),
});

const NSIS = ["Low", "Low", "Substantial", "High"];
const DK = "https://data.gov.dk/model/core/eid";
export const mitid = flatProfile({
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
    issue_instant: authenticatedAt(ctx),
  }),
});

/** SPID and CIE share the SPID attribute set; `idps` are the identity providers' entity ids. */
export function spidProfile(idps: readonly string[]): TDisclosureProfile {
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
        const a = addressClaim(v);
        return [a.street_address, a.postal_code, a.locality].filter(Boolean).join(" ");
      },
    },
    evidence: (ctx) => ({
      assertion_id: `_${ctx.hex("assertion", 40)}`,
      authn_context: `https://www.spid.gov.it/SpidL${Math.max(1, ctx.loa)}`,
      idp_entity_id: ctx.pick("idp", idps),
      issue_instant: authenticatedAt(ctx),
    }),
  });
}

const EIDAS = "http://eidas.europa.eu/attributes/naturalperson";
export const clave = flatProfile({
  keys: {
    given_name: `${EIDAS}/CurrentGivenName`,
    family_name: `${EIDAS}/CurrentFamilyName`,
    birthdate: `${EIDAS}/DateOfBirth`,
  },
  evidence: (ctx) => ({
    assertion_id: `_${ctx.hex("assertion", 40)}`,
    loa: eidasLoa(ctx.loa),
    clave_method: ctx.loa <= 1 ? "Cl@ve PIN" : "Cl@ve Móvil",
    issue_instant: authenticatedAt(ctx),
  }),
});

export const idAustria = flatProfile({
  keys: {
    given_name: "urn:oid:2.5.4.42",
    family_name: "urn:oid:1.2.40.0.10.2.1.1.261.20",
    birthdate: "urn:oid:1.2.40.0.10.2.1.1.55",
    address: "urn:eidgvat:attributes.mainAddress",
  },
  encode: {
    address: (v) => {
      const a = addressClaim(v);
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
    issued_at: authenticatedAt(ctx),
  }),
});
