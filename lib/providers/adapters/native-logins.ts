/**
 * Native profiles of the login schemes that answer in JSON: Swedish BankID's completion data,
 * and the OpenID Connect claims of Norwegian BankID, the Finnish Trust Network, itsme,
 * FranceConnect, SwissID and GOV.UK One Login (its coreIdentity and address vocabulary). Their
 * evidence carries the scheme's transaction id, assurance value and auth_time.
 */
import { authenticatedAt, authTime, compact, flatProfile, type TDisclosureProfile } from "./native-context";
import {
  addressClaim,
  addressOf,
  finnishHetu,
  splitStreet,
  str,
  swedishPersonalNumber,
} from "./native-formats";

export const swedishBankId = flatProfile({
  keys: { given_name: "givenName", family_name: "surname", name: "name", birthdate: "personalNumber" },
  encode: { birthdate: (v, ctx) => swedishPersonalNumber(String(v), ctx) },
  evidence: (ctx) => ({
    order_ref: ctx.uuid("order"),
    status: "complete",
    signature_sha256: ctx.hex("signature", 64),
    ocsp_response_sha256: ctx.hex("ocsp", 64),
    completed_at: authenticatedAt(ctx),
  }),
});

export const norwegianBankId = flatProfile({
  keys: { given_name: "given_name", family_name: "family_name", name: "name", birthdate: "birthdate" },
  evidence: (ctx) => ({
    jti: ctx.uuid("jti"),
    acr: "urn:bankid:bid",
    amr: "BID",
    bankid_altsub: `9578-6000-4-${ctx.digits("altsub", 6)}`,
    auth_time: authTime(ctx),
  }),
});

export const ftn = flatProfile({
  keys: { given_name: "given_name", family_name: "family_name", name: "name", birthdate: "birthdate" },
  extra: (ctx) => {
    const birthdate = str(ctx.claims.birthdate);
    return birthdate ? { hetu: finnishHetu(birthdate, ctx) } : {};
  },
  evidence: (ctx) => ({
    identity_provider: ctx.pick("idp", ["Nordea", "OP", "Danske Bank", "S-Pankki", "Elisa Mobiilivarmenne"]),
    acr: `http://ftn.ficora.fi/2017/loa${Math.max(2, ctx.loa)}`,
    transaction_id: ctx.uuid("transaction"),
    auth_time: authTime(ctx),
  }),
});

export const itsme = flatProfile({
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
      const a = addressClaim(v);
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
    auth_time: authTime(ctx),
  }),
});

const FC_ACR = ["eidas1", "eidas1", "eidas2", "eidas3"];
export const franceConnect = flatProfile({
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
    auth_time: authTime(ctx),
  }),
});

export const swissId = flatProfile({
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
    auth_time: authTime(ctx),
  }),
});

const UK_CORE = "https://vocab.account.gov.uk/v1/coreIdentity";
const UK_ADDRESS = "https://vocab.account.gov.uk/v1/address";
export const govUkOneLogin: TDisclosureProfile = {
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
      issued_at: authenticatedAt(ctx),
    }),
};
