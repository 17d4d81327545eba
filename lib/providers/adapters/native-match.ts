/**
 * Native profiles of the match schemes: Aadhaar demographic authentication, a bank's account
 * holder check (open banking) and CAMARA KYC Match of the mobile network operators.
 * Rules:
 * - a match scheme answers with its verdicts only (booleans or the scheme's own verdict codes),
 *   keyed by its native field names, never with the register's values;
 * - only the fields the caller submitted get a verdict.
 */
import { authenticatedAt, compact, nativeKey, type TMatchProfile } from "./native-context";

export const aadhaar: TMatchProfile = {
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
      ts: authenticatedAt(ctx),
    }),
};

export const bankMatch: TMatchProfile = {
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
      const key = nativeKey(bankMatch.keys, field);
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
      checked_at: authenticatedAt(ctx),
    }),
};

// CAMARA KYC Match: "true" | "false" | "not_available", plus a score 0–100 for a "false" name.
export const camaraMatch: TMatchProfile = {
  keys: {
    name: "nameMatch",
    given_name: "givenNameMatch",
    family_name: "familyNameMatch",
    birthdate: "birthdateMatch",
    address: "addressMatch",
    email: "emailMatch",
  },
  answer(result, ctx) {
    const claims: Readonly<Record<string, unknown>> = ctx.claims;
    const out: Record<string, unknown> = {};
    for (const field of result.submitted_fields) {
      const key = nativeKey(camaraMatch.keys, field);
      const detail = result.details[field];
      if (!key || !detail) continue;
      const available = claims[field] !== undefined;
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
      checked_at: authenticatedAt(ctx),
    }),
};
