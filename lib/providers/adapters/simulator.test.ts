import { describe, expect, it } from "vitest";
import { apiErrorOf } from "../../testing/api-error";
import { findProvider, PROVIDERS, type TProviderDefinition } from "../catalog";
import type { TTestIdentity } from "../identities";
import { DISCLOSURE_PROFILES, MATCH_PROFILES } from "./native-profiles";
import { buildProvenance } from "./provenance";
import { listTestIdentities, simulateOutcome } from "./simulator";
import type { TAdapterOutcome, TSourceIdentity } from "./types";

const AT = new Date("2026-03-01T10:00:00.000Z");

function provider(id: string): TProviderDefinition {
  const p = findProvider(id);
  if (!p) throw new Error(id);
  return p;
}

function success(outcome: TAdapterOutcome): TSourceIdentity {
  if (outcome.kind !== "success") throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
  return outcome.identity;
}

function identityOf(p: TProviderDefinition, scenario: TTestIdentity["scenario"]): TTestIdentity {
  return p.testIdentities.find((t) => t.scenario === scenario)!;
}

/** The native keys that carry only `claim` (not shared with another claim of the provider). */
function ownNativeKey(keys: Record<string, string | undefined>, claim: string): string | undefined {
  const key = keys[claim];
  if (!key) return undefined;
  return Object.entries(keys).filter(([, k]) => k === key).length === 1 ? key : undefined;
}

function expectProvenanceShape(p: TProviderDefinition, identity: TSourceIdentity) {
  const provenance = buildProvenance(p, identity, { verificationId: "ver_test", verifiedAt: AT });
  expect(provenance.presentation.channel).toEqual(p.channel);
  expect(provenance.presentation.credentials).toHaveLength(1);
  const [credential] = provenance.presentation.credentials;
  expect(credential).toEqual({
    type: p.id,
    issuer: { id: p.issuer.id, authority_name: p.issuer.authorityName, is_government: p.issuer.isGovernment },
    claims: identity.rawClaims,
    evidence: { token: identity.evidence, names: Object.keys(identity.evidence).join(";") },
  });
  expect(credential!.evidence.names.split(";").sort()).toEqual(Object.keys(identity.evidence).sort());
  expect(provenance._metadata).toEqual({ verification_id: "ver_test", verified_at: AT.toISOString() });
}

function expectEvidence(identity: TSourceIdentity) {
  const entries = Object.entries(identity.evidence);
  expect(entries.length).toBeGreaterThanOrEqual(2);
  for (const [key, value] of entries) {
    expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(typeof value).toBe("string");
    expect(value.length).toBeGreaterThan(0);
  }
  // the moment of authentication is part of every provider's evidence when known
  expect(
    Object.values(identity.evidence).some((v) => v === AT.toISOString() || v === String(AT.getTime() / 1000)),
  ).toBe(true);
}

describe("simulateOutcome: every catalog provider × every test identity", () => {
  for (const p of PROVIDERS.filter((x) => x.verificationModel === "disclosure")) {
    describe(p.id, () => {
      const profile = DISCLOSURE_PROFILES[p.id]!;
      const first = identityOf(p, "success");

      it("has a native profile and lists its test identities", () => {
        expect(profile).toBeDefined();
        expect(listTestIdentities(p)).toEqual(
          p.testIdentities.map(({ id, scenario, description, loa, claims }) => ({
            id,
            scenario,
            description,
            loa,
            claims,
          })),
        );
      });

      for (const identity of p.testIdentities) {
        it(`${identity.scenario} (${identity.id})`, () => {
          const outcome = simulateOutcome(p, {
            outcome: "success",
            identityId: identity.id,
            at: AT,
            reference: "ver_1",
          });
          if (identity.scenario === "failure") {
            expect(outcome).toMatchObject({ kind: "failure", reason: "authentication_failed" });
            return;
          }
          if (identity.scenario === "cancel") return void expect(outcome).toEqual({ kind: "cancelled" });
          if (identity.scenario === "expiry") return void expect(outcome).toEqual({ kind: "expired" });

          const result = success(outcome);
          expect(result.upstreamSubject).toBe(`${p.id}:${identity.id}`);
          expect(result.match).toBeUndefined();
          expect(result.claims).toEqual(identity.claims);
          for (const claim of Object.keys(result.claims)) expect(p.claims).toContain(claim);
          expect(result.loa).toBe(identity.loa);
          if (identity.scenario === "low_loa") expect(result.loa).toBe(1);
          else expect(result.loa).toBe(p.defaultLoa || Math.max(...p.loa));

          if (identity.scenario === "missing_claims") {
            const missing = p.claims.filter((c) => !(c in result.claims));
            expect(missing.length).toBeGreaterThan(0);
            expect(Object.keys(result.claims).length).toBeLessThan(Object.keys(first.claims).length);
          } else {
            expect(Object.keys(result.claims).sort()).toEqual([...p.claims].sort());
          }

          // the native answer carries what was disclosed, under the scheme's own names
          const keys = profile.keys as Record<string, string | undefined>;
          for (const claim of Object.keys(result.claims)) {
            if (keys[claim]) expect(result.rawClaims).toHaveProperty([keys[claim]!]);
          }
          for (const claim of p.claims.filter((c) => !(c in result.claims))) {
            const key = ownNativeKey(keys, claim);
            if (key) expect(result.rawClaims).not.toHaveProperty([key]);
          }
          expect(Object.keys(result.rawClaims).length).toBeGreaterThan(0);
          expectEvidence(result);
          expectProvenanceShape(p, result);
        });
      }

      it("yields failure, cancelled and expired for those requested outcomes, whatever the identity", () => {
        expect(simulateOutcome(p, { outcome: "failure", identityId: first.id })).toMatchObject({
          kind: "failure",
          reason: "authentication_failed",
        });
        expect(simulateOutcome(p, { outcome: "cancel" })).toEqual({ kind: "cancelled" });
        expect(simulateOutcome(p, { outcome: "expire", identityId: identityOf(p, "low_loa").id })).toEqual({
          kind: "expired",
        });
      });
    });
  }
});

describe("simulateOutcome: match providers", () => {
  for (const p of PROVIDERS.filter((x) => x.verificationModel === "match")) {
    describe(p.id, () => {
      const first = identityOf(p, "success");
      // what a caller knows about the first test person, in OIDC-normalized keys
      const matchData = Object.fromEntries(
        Object.entries(first.claims).map(([k, v]) => [
          k,
          k === "address" ? (v as { formatted: string }).formatted : v,
        ]),
      );

      it("has a native verdict profile", () => {
        expect(MATCH_PROFILES[p.id]).toBeDefined();
      });

      for (const identity of p.testIdentities) {
        it(`${identity.scenario} (${identity.id})`, () => {
          const outcome = simulateOutcome(p, {
            outcome: "success",
            identityId: identity.id,
            matchData,
            at: AT,
          });
          if (["failure", "cancel", "expiry"].includes(identity.scenario)) {
            expect(outcome.kind).toBe(
              { failure: "failure", cancel: "cancelled", expiry: "expired" }[identity.scenario as string],
            );
            return;
          }
          const result = success(outcome);
          const match = result.match!;
          expect(match.granularity).toBe(p.matchGranularity);
          expect(match.submitted_fields).toEqual(Object.keys(matchData));
          expect(Object.keys(match.details)).toEqual(Object.keys(matchData));
          for (const [field, detail] of Object.entries(match.details)) {
            expect(detail.submitted_value).toEqual(matchData[field]);
            if (p.matchGranularity === "aggregate") expect(Object.keys(detail)).toEqual(["submitted_value"]);
            else expect(typeof detail.matched).toBe("boolean");
          }
          const matchedFields = Object.entries(match.details)
            .filter(([, d]) => d.matched)
            .map(([f]) => f);

          const samePerson = identity.scenario === "low_loa" || identity.id === first.id;
          expect(match.matched).toBe(samePerson);
          if (identity.scenario === "low_loa") expect(result.loa).toBe(1);
          if (identity.scenario === "mismatch" && p.matchGranularity === "per_field") {
            expect(match.details.family_name?.matched).toBe(false);
            expect(match.details.birthdate?.matched).toBe(false);
            expect(match.details.given_name?.matched).toBe(true);
          }
          if (identity.scenario === "missing_claims" && p.matchGranularity === "per_field") {
            for (const field of Object.keys(matchData).filter((f) => !(f in identity.claims)))
              expect(match.details[field]!.matched).toBe(false);
          }

          // user = the verified subset of what was submitted
          if (p.matchGranularity === "per_field") {
            expect(result.claims).toEqual(Object.fromEntries(matchedFields.map((f) => [f, matchData[f]])));
          } else {
            expect(result.claims).toEqual(match.matched ? matchData : {});
          }

          // the upstream verdict, never the register's values
          const raw = JSON.stringify(result.rawClaims);
          for (const value of Object.values(identity.claims)) {
            if (typeof value === "string" && value.length > 5) expect(raw).not.toContain(value);
          }
          expect(Object.keys(result.rawClaims).length).toBeGreaterThan(0);
          expectEvidence(result);
          expectProvenanceShape(p, result);
        });
      }

      it("verifies nothing without matchData", () => {
        const result = success(simulateOutcome(p, { outcome: "success" }));
        expect(result.match).toMatchObject({ matched: false, submitted_fields: [], details: {} });
        expect(result.claims).toEqual({});
      });
    });
  }

  it("answers in each scheme's own verdict format", () => {
    const aadhaar = provider("in_aadhaar_match");
    const ok = success(simulateOutcome(aadhaar, { outcome: "success", matchData: { name: "Asha Sharma" } }));
    expect(ok.rawClaims).toEqual({ ret: "y" });
    const no = success(simulateOutcome(aadhaar, { outcome: "success", matchData: { name: "Asha Verma" } }));
    expect(no.rawClaims).toEqual({ ret: "n", err: "100" });
    expect(no.claims).toEqual({});

    const bank = provider("bank_data_match");
    const b = success(
      simulateOutcome(bank, {
        outcome: "success",
        identityId: "bank_data_match-mismatch",
        matchData: { given_name: "Max", family_name: "Mustermann", birthdate: "1975-02-28" },
      }),
    );
    expect(b.rawClaims).toEqual({ firstNameMatch: true, lastNameMatch: false, dateOfBirthMatch: false });
    expect(b.claims).toEqual({ given_name: "Max" });

    const mno = provider("mno_kyc_match");
    const m = success(
      simulateOutcome(mno, {
        outcome: "success",
        identityId: "mno_kyc_match-missing-claims",
        matchData: { given_name: "Laura", family_name: "Gomes", birthdate: "1992-04-04" },
      }),
    );
    expect(m.rawClaims).toEqual({
      givenNameMatch: "true",
      familyNameMatch: "false",
      familyNameMatchScore: 80,
      birthdateMatch: "not_available",
    });
    expect(m.match?.details.family_name).toEqual({
      matched: false,
      submitted_value: "Gomes",
      similarity: 80,
    });
  });

  it("refuses matchData keys the provider does not compare, naming the field", () => {
    const error = apiErrorOf(() =>
      simulateOutcome(provider("bank_data_match"), { outcome: "success", matchData: { nationality: "DE" } }),
    );
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details).toEqual([{ path: "matchData.nationality", message: expect.any(String) }]);
  });
});

describe("simulateOutcome: identities and determinism", () => {
  const deEid = provider("de_eid");

  it("defaults to the provider's first success identity", () => {
    const result = success(simulateOutcome(deEid, { outcome: "success" }));
    expect(result.upstreamSubject).toBe("de_eid:de_eid-erika-mustermann");
    expect(result.claims.given_name).toBe("Erika");
  });

  it("gives different people different subjects", () => {
    const [a, b] = deEid.testIdentities.filter((t) => t.scenario === "success");
    const x = success(simulateOutcome(deEid, { outcome: "success", identityId: a!.id }));
    const y = success(simulateOutcome(deEid, { outcome: "success", identityId: b!.id }));
    expect(x.upstreamSubject).not.toBe(y.upstreamSubject);
  });

  it("refuses an unknown identity and another provider's identity, naming `identity`", () => {
    for (const identityId of ["nobody", "nl_digid-willeke-de-bruijn"]) {
      const error = apiErrorOf(() => simulateOutcome(deEid, { outcome: "success", identityId }));
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.status).toBe(400);
      expect(error.details[0]?.path).toBe("identity");
    }
    // even for outcomes that would not need the identity
    expect(
      apiErrorOf(() => simulateOutcome(deEid, { outcome: "cancel", identityId: "nobody" })).details[0]?.path,
    ).toBe("identity");
  });

  it("is deterministic; the reference varies the transaction ids, the moment adds timestamps", () => {
    const once = simulateOutcome(deEid, { outcome: "success", reference: "ver_a" });
    expect(simulateOutcome(deEid, { outcome: "success", reference: "ver_a" })).toEqual(once);
    const other = success(simulateOutcome(deEid, { outcome: "success", reference: "ver_b" }));
    expect(other.evidence.transaction_id).not.toBe(success(once).evidence.transaction_id);
    expect(other.claims).toEqual(success(once).claims);
    expect(success(once).evidence).not.toHaveProperty("timestamp");
    expect(success(simulateOutcome(deEid, { outcome: "success", at: AT })).evidence.timestamp).toBe(
      AT.toISOString(),
    );
  });

  it("does not hand out the catalog's own objects", () => {
    const result = success(simulateOutcome(deEid, { outcome: "success" }));
    (result.claims.address as { locality: string }).locality = "Bonn";
    expect((identityOf(deEid, "success").claims.address as { locality: string }).locality).toBe("Köln");
  });
});

describe("native answers", () => {
  const raw = (id: string, identityId?: string) =>
    success(
      simulateOutcome(provider(id), { outcome: "success", at: AT, ...(identityId ? { identityId } : {}) }),
    ).rawClaims;

  it("German eID: BSI eID-Server attribute names", () => {
    expect(raw("de_eid")).toMatchObject({
      GivenNames: "Erika",
      FamilyNames: "Mustermann",
      DateOfBirth: { DateString: "19640812", DateValue: "1964-08-12" },
      Nationality: "D",
      PlaceOfResidence: {
        StructuredPlace: { Street: "Heidestraße 17", City: "Köln", ZipCode: "51147", Country: "D" },
      },
    });
  });

  it("passport: MRZ-style data group 1", () => {
    expect(raw("passport", "passport-lukas-novak")).toEqual({
      documentCode: "P",
      primaryIdentifier: "NOVAK",
      secondaryIdentifier: "LUKAS",
      nameOfHolder: "NOVAK<<LUKAS",
      dateOfBirth: "880302",
      nationality: "CZE",
      sex: "M",
    });
  });

  it("BankID (Sweden): givenName/surname and a valid personnummer for the birthdate", () => {
    const r = raw("se_bankid");
    expect(r).toMatchObject({ givenName: "Astrid", surname: "Andersson", name: "Astrid Andersson" });
    const pnr = String(r.personalNumber);
    expect(pnr).toMatch(/^19820214\d{4}$/);
    // Luhn over the 10-digit form
    const digits = [...pnr.slice(2)].map(Number);
    const sum = digits.reduce((s, d, i) => {
      const v = i % 2 === 0 ? d * 2 : d;
      return s + (v > 9 ? v - 9 : v);
    }, 0);
    expect(sum % 10).toBe(0);
    expect(Number(pnr[10]) % 2).toBe(0); // a woman
  });

  it("SPID: name/familyName/dateOfBirth", () => {
    expect(raw("it_spid")).toMatchObject({
      name: "Mario",
      familyName: "Rossi",
      dateOfBirth: "1978-05-11",
      gender: "M",
    });
  });

  it("EU wallet: PID attribute names", () => {
    expect(raw("eudi_wallet")).toMatchObject({
      given_name: "Sofia",
      family_name: "Costa",
      birth_date: "1995-05-18",
      nationality: ["PT"],
      resident_city: "Lisboa",
    });
  });

  it("Finnish and Estonian national numbers encode the birthdate with valid check characters", () => {
    const hetu = String(raw("fi_ftn").hetu);
    expect(hetu).toMatch(/^190783-\d{3}[0-9A-Y]$/);
    expect(hetu[10]).toBe(
      "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(hetu.slice(0, 6) + hetu.slice(7, 10)) % 31],
    );

    const serial = String(raw("ee_id_card").serialNumber);
    expect(serial).toMatch(/^PNOEE-4850909\d{4}$/); // 4: a woman born in the 1900s
    const code = serial.slice(6);
    const weigh = (w: number[]) => [...code.slice(0, 10)].reduce((s, d, i) => s + Number(d) * w[i]!, 0) % 11;
    let check = weigh([1, 2, 3, 4, 5, 6, 7, 8, 9, 1]);
    if (check === 10) check = weigh([3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 10;
    expect(Number(code[10])).toBe(check);
  });

  it("missing claims leave their native attributes out", () => {
    const r = raw("de_eid", "de_eid-missing-claims");
    expect(r).toHaveProperty("GivenNames");
    expect(r).not.toHaveProperty("DateOfBirth");
    expect(r).not.toHaveProperty("PlaceOfResidence");
    expect(r).not.toHaveProperty("Nationality");
  });
});
