/**
 * The provider catalog: one entry per eID method, drawn from real eID schemes.
 * Rules (checked by catalog.test.ts):
 * - ids are unique lower-case snake_case; `logoUrl` is `/providers/<id>.svg`, a file in public/;
 * - `countries` are ISO 3166-1 alpha-2 codes; `flowTypes` ⊆ qr|redirect|push|dc;
 * - `loa` lists the levels the provider can issue (1 low, 2 substantial, 3 high) and contains
 *   `defaultLoa` unless that is 0 (unspecified);
 * - `type` 1 centralized IdP, 2 chip-based, 3 decentralized wallet;
 * - `verificationModel` disclosure or match; only match providers have `matchGranularity`; for a
 *   match provider `claims` are the fields it can compare (and return when verified);
 * - `claims` are OIDC standard claim names, each reachable through one of `scopes`;
 * - activation is direct (no requirements), registration (a form, operator-reviewed) or
 *   contract (one `supportContact` info entry; activated off-API);
 * - every provider runs on the simulator in the sandbox and names its production adapter:
 *   `oidc` (redirect IdPs, usually through their OIDC front door), `chip` (NFC or card-reader
 *   chip reading), `wallet` (OpenID4VP, incl. the Digital Credentials API) or `match`.
 */
import { memberGuard, memberParser } from "../state-machine";
import { scopesFor, type TClaimName } from "./claims";
import { EEA, PASSPORT_COUNTRIES } from "./countries";
import { buildTestIdentities, type TTestIdentity, type TTestPerson } from "./identities";
import { TEST_PEOPLE } from "./test-people";
import { registrationForm, requirement, type TActivationSpec } from "./requirements";

export const FLOW_TYPES = ["qr", "redirect", "push", "dc"] as const;
export type TFlowType = (typeof FLOW_TYPES)[number];
/** `verifications.flow_type` as read from its row. */
export const parseFlowType = memberParser(FLOW_TYPES, "verifications.flow_type");
export const isFlowType = memberGuard(FLOW_TYPES);
export type TProviderType = 1 | 2 | 3;
export type TVerificationModel = "disclosure" | "match";
export type TMatchGranularity = "per_field" | "aggregate";
export type TProductionAdapter = "oidc" | "chip" | "wallet" | "match";
export type TAdapterId = "simulator" | TProductionAdapter;

export interface TProviderIssuer {
  id: string;
  authorityName: string;
  isGovernment: boolean;
}

interface TProviderBase {
  id: string;
  name: string;
  description: string;
  logoUrl: string;
  countries: string[];
  flowTypes: TFlowType[];
  scopes: string[];
  loa: number[];
  /** used when the upstream returns no level; 0 = unspecified */
  defaultLoa: number;
  /** 1 centralized IdP, 2 chip-based, 3 decentralized wallet */
  type: TProviderType;
  activation: TActivationSpec;
  /** OIDC claim names the provider can disclose (match providers: the fields it compares) */
  claims: TClaimName[];
  testIdentities: TTestIdentity[];
  adapters: { sandbox: "simulator"; production: TProductionAdapter };
  /** for provenance: who vouches for the identity, and how it reaches us */
  issuer: TProviderIssuer;
  channel: { type: "centralized_idp" | "chip" | "wallet"; transport: "internet" | "nfc" };
}

export type TProviderDefinition =
  | (TProviderBase & { verificationModel: "disclosure"; matchGranularity?: undefined })
  | (TProviderBase & { verificationModel: "match"; matchGranularity: TMatchGranularity });

interface TProviderInput {
  id: string;
  name: string;
  description: string;
  countries: string[];
  flowTypes: TFlowType[];
  loa: number[];
  defaultLoa: number;
  type: TProviderType;
  activation: TActivationSpec;
  claims: TClaimName[];
  people: readonly [TTestPerson, TTestPerson];
  issuer: TProviderIssuer;
  match?: TMatchGranularity;
  adapter?: TProductionAdapter;
}

function defineProvider(input: TProviderInput): TProviderDefinition {
  const { people, match, adapter, ...rest } = input;
  const production: TProductionAdapter =
    adapter ?? (match ? "match" : input.type === 2 ? "chip" : input.type === 3 ? "wallet" : "oidc");
  const base: TProviderBase = {
    ...rest,
    logoUrl: `/providers/${input.id}.svg`,
    scopes: scopesFor(input.claims),
    testIdentities: buildTestIdentities({
      providerId: input.id,
      claims: input.claims,
      loa: input.defaultLoa || Math.max(...input.loa),
      people,
      match: match !== undefined,
    }),
    adapters: { sandbox: "simulator", production },
    channel: {
      type: input.type === 1 ? "centralized_idp" : input.type === 2 ? "chip" : "wallet",
      transport: input.type === 2 ? "nfc" : "internet",
    },
  };
  return match
    ? { ...base, verificationModel: "match", matchGranularity: match }
    : { ...base, verificationModel: "disclosure" };
}

const direct: TActivationSpec = { kind: "direct", requirements: [] };
const contract = (name: string): TActivationSpec => ({
  kind: "contract",
  requirements: [requirement.supportContact(name)],
});
const registration = (...extra: Parameters<typeof registrationForm>): TActivationSpec => ({
  kind: "registration",
  requirements: registrationForm(...extra),
});

const NAME: TClaimName[] = ["name", "given_name", "family_name"];

export const PROVIDERS: readonly TProviderDefinition[] = [
  defineProvider({
    id: "passport",
    people: TEST_PEOPLE.passport,
    name: "Passport (NFC)",
    description:
      "Reads the chip of an ICAO 9303 electronic passport with the phone's NFC reader and checks its passive and chip authentication.",
    countries: PASSPORT_COUNTRIES,
    flowTypes: ["qr"],
    loa: [2, 3],
    defaultLoa: 2,
    type: 2,
    activation: direct,
    claims: [...NAME, "birthdate", "nationality", "gender"],
    issuer: { id: "urn:icao:9303", authorityName: "The passport's issuing state", isGovernment: true },
  }),
  defineProvider({
    id: "de_eid",
    people: TEST_PEOPLE.de_eid,
    name: "German eID card (Online-Ausweis)",
    description:
      "The online function of the German identity card (nPA) and electronic residence permit: the card's chip is read by a phone or card reader through the AusweisApp.",
    countries: ["DE"],
    flowTypes: ["qr", "redirect"],
    loa: [2, 3],
    defaultLoa: 3,
    type: 2,
    activation: direct,
    claims: [...NAME, "birthdate", "nationality", "address"],
    issuer: {
      id: "https://www.personalausweisportal.de",
      authorityName: "Bundesministerium des Innern und für Heimat",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "nl_digid",
    people: TEST_PEOPLE.nl_digid,
    name: "DigiD",
    description:
      "The Dutch government login, with the DigiD app (QR or same device) or, at the highest level, the identity card's chip.",
    countries: ["NL"],
    flowTypes: ["redirect", "qr"],
    loa: [1, 2, 3],
    defaultLoa: 2,
    type: 1,
    activation: registration(requirement.privacyPolicyUrl()),
    claims: [...NAME, "birthdate"],
    issuer: { id: "https://www.digid.nl", authorityName: "Logius", isGovernment: true },
  }),
  defineProvider({
    id: "se_bankid",
    people: TEST_PEOPLE.se_bankid,
    name: "BankID (Sweden)",
    description:
      "Sweden's bank-issued electronic identification, confirmed in the BankID app by QR code or on the same device.",
    countries: ["SE"],
    flowTypes: ["qr", "redirect"],
    loa: [2],
    defaultLoa: 2,
    type: 1,
    activation: contract("Swedish BankID"),
    claims: [...NAME, "birthdate"],
    issuer: {
      id: "https://www.bankid.com",
      authorityName: "Finansiell ID-Teknik BID AB",
      isGovernment: false,
    },
  }),
  defineProvider({
    id: "no_bankid",
    people: TEST_PEOPLE.no_bankid,
    name: "BankID (Norway)",
    description:
      "Norway's bank-issued electronic identity at the highest national level, used through the BankID app.",
    countries: ["NO"],
    flowTypes: ["redirect"],
    loa: [3],
    defaultLoa: 3,
    type: 1,
    activation: contract("Norwegian BankID"),
    claims: [...NAME, "birthdate"],
    issuer: { id: "https://www.bankid.no", authorityName: "BankID BankAxept AS", isGovernment: false },
  }),
  defineProvider({
    id: "dk_mitid",
    people: TEST_PEOPLE.dk_mitid,
    name: "MitID",
    description: "Denmark's national digital identity, approved in the MitID app or with a code display.",
    countries: ["DK"],
    flowTypes: ["redirect", "push"],
    loa: [1, 2, 3],
    defaultLoa: 2,
    type: 1,
    activation: registration(requirement.termsAccepted("MitID")),
    claims: [...NAME, "birthdate"],
    issuer: { id: "https://www.mitid.dk", authorityName: "Digitaliseringsstyrelsen", isGovernment: true },
  }),
  defineProvider({
    id: "fi_ftn",
    people: TEST_PEOPLE.fi_ftn,
    name: "Finnish Trust Network",
    description:
      "Strong electronic identification in Finland through the identity providers of the Finnish Trust Network (bank IDs and mobile certificates).",
    countries: ["FI"],
    flowTypes: ["redirect"],
    loa: [2, 3],
    defaultLoa: 2,
    type: 1,
    activation: contract("The Finnish Trust Network"),
    claims: [...NAME, "birthdate"],
    issuer: {
      id: "https://www.kyberturvallisuuskeskus.fi/en/our-activities/regulation-and-supervision/electronic-identification",
      authorityName: "Finnish Trust Network identity providers (supervised by Traficom)",
      isGovernment: false,
    },
  }),
  defineProvider({
    id: "be_itsme",
    people: TEST_PEOPLE.be_itsme,
    name: "itsme",
    description:
      "App-based digital identity used in Belgium and its neighbours: the user confirms in the itsme app by push, QR code or on the same device.",
    countries: ["BE", "NL", "LU"],
    flowTypes: ["redirect", "push", "qr"],
    loa: [2, 3],
    defaultLoa: 3,
    type: 1,
    activation: registration(requirement.dataPurposes()),
    claims: [...NAME, "birthdate", "gender", "nationality", "address", "email", "phone_number"],
    issuer: { id: "https://www.itsme-id.com", authorityName: "Belgian Mobile ID SA/NV", isGovernment: false },
  }),
  defineProvider({
    id: "it_spid",
    people: TEST_PEOPLE.it_spid,
    name: "SPID",
    description:
      "Italy's public digital identity system, federating accredited identity providers at three levels.",
    countries: ["IT"],
    flowTypes: ["redirect", "qr"],
    loa: [1, 2, 3],
    defaultLoa: 2,
    type: 1,
    activation: contract("SPID"),
    claims: [...NAME, "birthdate", "gender", "email", "phone_number", "address"],
    issuer: {
      id: "https://www.spid.gov.it",
      authorityName: "AgID – Agenzia per l'Italia Digitale",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "it_cie",
    people: TEST_PEOPLE.it_cie,
    name: "CIE (Carta d'Identità Elettronica)",
    description: "The Italian electronic identity card, read over NFC by the CieID app or a card reader.",
    countries: ["IT"],
    flowTypes: ["redirect", "qr"],
    loa: [2, 3],
    defaultLoa: 3,
    type: 2,
    activation: direct,
    claims: [...NAME, "birthdate"],
    issuer: {
      id: "https://www.cartaidentita.interno.gov.it",
      authorityName: "Ministero dell'Interno",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "fr_franceconnect",
    people: TEST_PEOPLE.fr_franceconnect,
    name: "FranceConnect",
    description:
      "The French state's login federation: users sign in through an account they already have (impots.gouv.fr, ameli.fr, La Poste, …).",
    countries: ["FR"],
    flowTypes: ["redirect"],
    loa: [1, 2],
    defaultLoa: 1,
    type: 1,
    activation: registration(requirement.privacyPolicyUrl(), requirement.dataPurposes()),
    claims: [...NAME, "birthdate", "gender", "email"],
    issuer: { id: "https://franceconnect.gouv.fr", authorityName: "DINUM", isGovernment: true },
  }),
  defineProvider({
    id: "es_clave",
    people: TEST_PEOPLE.es_clave,
    name: "Cl@ve",
    description:
      "The Spanish public administration's identification platform (Cl@ve PIN, Cl@ve Móvil, Cl@ve permanente).",
    countries: ["ES"],
    flowTypes: ["redirect"],
    loa: [1, 2],
    defaultLoa: 2,
    type: 1,
    activation: registration(),
    claims: [...NAME, "birthdate"],
    issuer: { id: "https://clave.gob.es", authorityName: "Gobierno de España – Cl@ve", isGovernment: true },
  }),
  defineProvider({
    id: "es_dnie",
    people: TEST_PEOPLE.es_dnie,
    name: "DNIe (Spanish eID card)",
    description:
      "The chip of the Spanish national identity card (DNI 3.0/4.0), read over NFC on the user's phone.",
    countries: ["ES"],
    flowTypes: ["qr"],
    loa: [3],
    defaultLoa: 3,
    type: 2,
    activation: direct,
    claims: [...NAME, "birthdate", "nationality", "gender", "address"],
    issuer: {
      id: "https://www.dnielectronico.es",
      authorityName: "Dirección General de la Policía",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "ee_smart_id",
    people: TEST_PEOPLE.ee_smart_id,
    name: "Smart-ID",
    description:
      "Mobile identity for Estonia, Latvia and Lithuania: the user confirms with a PIN in the Smart-ID app.",
    countries: ["EE", "LV", "LT"],
    flowTypes: ["push", "qr"],
    loa: [2, 3],
    defaultLoa: 3,
    type: 1,
    activation: registration(),
    claims: [...NAME, "birthdate"],
    issuer: { id: "https://www.smart-id.com", authorityName: "SK ID Solutions AS", isGovernment: false },
  }),
  defineProvider({
    id: "ee_id_card",
    people: TEST_PEOPLE.ee_id_card,
    name: "Estonian ID card",
    description:
      "The chip of the Estonian ID card (and digi-ID), read with a card reader through Web eID or over NFC.",
    countries: ["EE"],
    flowTypes: ["redirect", "qr"],
    loa: [3],
    defaultLoa: 3,
    type: 2,
    activation: direct,
    claims: [...NAME, "birthdate", "nationality"],
    issuer: {
      id: "https://www.id.ee",
      authorityName: "Police and Border Guard Board (PPA)",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "pl_mobywatel",
    people: TEST_PEOPLE.pl_mobywatel,
    name: "mObywatel",
    description:
      "Poland's government wallet app: the user shares the data of their mDowód by scanning a QR code.",
    countries: ["PL"],
    flowTypes: ["qr"],
    loa: [2],
    defaultLoa: 2,
    type: 3,
    activation: registration(),
    claims: [...NAME, "birthdate", "nationality"],
    issuer: {
      id: "https://www.gov.pl/web/mobywatel",
      authorityName: "Ministerstwo Cyfryzacji",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "at_id_austria",
    people: TEST_PEOPLE.at_id_austria,
    name: "ID Austria",
    description: "Austria's electronic identity, confirmed in the Digitales Amt app or with a security key.",
    countries: ["AT"],
    flowTypes: ["redirect", "push"],
    loa: [2, 3],
    defaultLoa: 3,
    type: 1,
    activation: registration(requirement.privacyPolicyUrl()),
    claims: [...NAME, "birthdate", "address"],
    issuer: {
      id: "https://www.oesterreich.gv.at/id-austria.html",
      authorityName: "Republik Österreich",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "ch_swissid",
    people: TEST_PEOPLE.ch_swissid,
    name: "SwissID",
    description:
      "A Swiss digital identity with a verified profile, used to sign in to private and public services.",
    countries: ["CH", "LI"],
    flowTypes: ["redirect"],
    loa: [1, 2],
    defaultLoa: 1,
    type: 1,
    activation: registration(requirement.termsAccepted("SwissID")),
    claims: [...NAME, "birthdate", "gender", "email", "email_verified", "phone_number", "address"],
    issuer: { id: "https://www.swissid.ch", authorityName: "SwissSign AG", isGovernment: false },
  }),
  defineProvider({
    id: "uk_gov_one_login",
    people: TEST_PEOPLE.uk_gov_one_login,
    name: "GOV.UK One Login",
    description: "The UK government's sign-in and identity checking service for government services.",
    countries: ["GB"],
    flowTypes: ["redirect"],
    loa: [1, 2],
    defaultLoa: 2,
    type: 1,
    activation: contract("GOV.UK One Login"),
    claims: [...NAME, "birthdate", "email", "email_verified", "phone_number", "address"],
    issuer: {
      id: "https://www.sign-in.service.gov.uk",
      authorityName: "Government Digital Service",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "eudi_wallet",
    people: TEST_PEOPLE.eudi_wallet,
    name: "EU Digital Identity Wallet",
    description:
      "Person identification data from an EU Digital Identity Wallet over OpenID4VP: in the browser through the Digital Credentials API, or by QR code and same-device redirect.",
    countries: EEA,
    flowTypes: ["dc", "qr", "redirect"],
    loa: [2, 3],
    defaultLoa: 3,
    type: 3,
    activation: registration(requirement.privacyPolicyUrl(), requirement.dataPurposes()),
    claims: [...NAME, "birthdate", "nationality", "address", "gender"],
    issuer: {
      id: "urn:eu:europa:ec:eudi:pid:1",
      authorityName: "PID provider of the wallet's member state",
      isGovernment: true,
    },
  }),
  defineProvider({
    id: "digital_id_app",
    people: TEST_PEOPLE.digital_id_app,
    name: "Reusable digital ID app",
    description:
      "A wallet-style reusable identity app (in the manner of Yoti): the user's document was checked once, and they share verified details by scanning a QR code or approving a push request.",
    countries: ["GB", "IE", "US", "CA", "AU", "NZ"],
    flowTypes: ["qr", "push"],
    loa: [1, 2],
    defaultLoa: 2,
    type: 3,
    activation: direct,
    claims: [...NAME, "birthdate", "nationality", "gender", "address", "email", "phone_number"],
    issuer: {
      id: "urn:idv:digital-id-app",
      authorityName: "Reusable digital ID app operator",
      isGovernment: false,
    },
  }),
  defineProvider({
    id: "in_aadhaar_match",
    people: TEST_PEOPLE.in_aadhaar_match,
    name: "Aadhaar demographic match",
    description:
      "Aadhaar-style demographic authentication: the caller's name, birthdate, gender and contact details are compared with the national register after the resident approves on their phone, and one yes/no verdict comes back.",
    countries: ["IN"],
    flowTypes: ["push"],
    loa: [1, 2],
    defaultLoa: 2,
    type: 1,
    activation: contract("Aadhaar authentication (through an authentication user agency)"),
    claims: ["name", "birthdate", "gender", "email", "phone_number"],
    issuer: {
      id: "https://uidai.gov.in",
      authorityName: "Unique Identification Authority of India",
      isGovernment: true,
    },
    match: "aggregate",
  }),
  defineProvider({
    id: "bank_data_match",
    people: TEST_PEOPLE.bank_data_match,
    name: "Bank account holder match",
    description:
      "The user signs in to their bank through open banking; the bank's KYC record of the account holder is compared field by field with the data the caller submits.",
    countries: ["DE", "AT", "NL", "BE", "FR", "ES", "IT"],
    flowTypes: ["redirect"],
    loa: [2],
    defaultLoa: 2,
    type: 1,
    activation: registration(requirement.termsAccepted("open banking access")),
    claims: [...NAME, "birthdate", "address"],
    issuer: {
      id: "urn:idv:bank-data-match",
      authorityName: "The user's account-holding bank",
      isGovernment: false,
    },
    match: "per_field",
  }),
  defineProvider({
    id: "mno_kyc_match",
    people: TEST_PEOPLE.mno_kyc_match,
    name: "Mobile operator KYC match",
    description:
      "Compares the caller's data with the subscriber record of the user's mobile network operator (in the manner of CAMARA KYC Match), field by field with similarity scores, after the user approves on their phone.",
    countries: ["DE", "ES", "IT", "FR", "GB", "BR"],
    flowTypes: ["push"],
    loa: [1, 2],
    defaultLoa: 1,
    type: 1,
    activation: registration(),
    claims: [...NAME, "birthdate", "address", "email", "phone_number"],
    issuer: {
      id: "urn:idv:mno-kyc-match",
      authorityName: "The subscriber's mobile network operator",
      isGovernment: false,
    },
    match: "per_field",
  }),
];

const byId = new Map(PROVIDERS.map((p) => [p.id, p]));

export function findProvider(id: string): TProviderDefinition | undefined {
  return byId.get(id);
}

/** The test identity `id` of `provider`, if any. */
export function findTestIdentity(provider: TProviderDefinition, id: string): TTestIdentity | undefined {
  return provider.testIdentities.find((t) => t.id === id);
}
