/**
 * Native profiles of the certificate schemes of Estonia: Smart-ID and the ID card (Web eID).
 * Both answer with the subject of the person's X.509 authentication certificate — GN, SN, CN
 * ("SURNAME,GIVEN,CODE") and serialNumber "PNOEE-<isikukood>", the personal code derived from
 * the birthdate — and the ID card adds the country C.
 */
import { authenticatedAt, flatProfile, type TProfileContext } from "./native-context";
import { estonianPersonalCode, str } from "./native-formats";

/** The personal code in the certificate, when the birthdate was disclosed. */
const personalCode = (ctx: TProfileContext) => {
  const birthdate = str(ctx.claims.birthdate);
  return birthdate ? estonianPersonalCode(birthdate, ctx) : undefined;
};

function x509Subject(withNationality: boolean) {
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
        [str(ctx.claims.family_name), str(ctx.claims.given_name), personalCode(ctx)]
          .filter(Boolean)
          .join(",")
          .toUpperCase(),
      birthdate: (_v: unknown, ctx: TProfileContext) => `PNOEE-${personalCode(ctx)}`,
    },
  };
}

export const smartId = flatProfile({
  ...x509Subject(false),
  evidence: (ctx) => ({
    session_id: ctx.uuid("session"),
    document_number: `PNOEE-${personalCode(ctx) ?? ctx.digits("document", 11)}-${ctx.hex("doc", 4).toUpperCase()}-Q`,
    certificate_level: "QUALIFIED",
    interaction: "displayTextAndPIN",
    signature_algorithm: "sha512WithRSAEncryption",
    completed_at: authenticatedAt(ctx),
  }),
});

export const estonianIdCard = flatProfile({
  ...x509Subject(true),
  evidence: (ctx) => ({
    certificate_serial: ctx.hex("certificate", 32),
    certificate_issuer: "CN=ESTEID2018,organizationIdentifier=NTREE-10747013,O=SK ID Solutions AS,C=EE",
    ocsp_status: "good",
    auth_token_format: "web-eid:1.0",
    authenticated_at: authenticatedAt(ctx),
  }),
});
