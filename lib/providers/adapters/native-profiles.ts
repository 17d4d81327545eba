/**
 * The native profile of every catalog provider, by provider id: how it talks natively, for the
 * sandbox simulator (the attribute names and value formats of its real upstream answer, and the
 * evidence it hands out). The profiles live with their scheme family: native-documents.ts,
 * native-federations.ts, native-logins.ts, native-certificates.ts and native-match.ts; their
 * shapes and context in native-context.ts, shared value formats in native-formats.ts.
 * Rules:
 * - every catalog provider has a profile (checked by the simulator's tests);
 * - a raw answer carries exactly the person data of the disclosed OIDC claims, under the scheme's
 *   own names and formats — nothing the source did not disclose.
 */
import { estonianIdCard, smartId } from "./native-certificates";
import type { TDisclosureProfile, TMatchProfile } from "./native-context";
import { digitalIdApp, dnie, eudiPid, germanEid, mobywatel, passport } from "./native-documents";
import { clave, digid, idAustria, mitid, spidProfile } from "./native-federations";
import {
  franceConnect,
  ftn,
  govUkOneLogin,
  itsme,
  norwegianBankId,
  swedishBankId,
  swissId,
} from "./native-logins";
import { aadhaar, bankMatch, camaraMatch } from "./native-match";

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

export const MATCH_PROFILES: Readonly<Record<string, TMatchProfile>> = {
  in_aadhaar_match: aadhaar,
  bank_data_match: bankMatch,
  mno_kyc_match: camaraMatch,
};
