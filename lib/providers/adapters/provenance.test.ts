import { describe, expect, it } from "vitest";
import { findProvider } from "../catalog";
import { buildEvidence, buildProvenance, provenanceChannel } from "./provenance";
import type { TSourceIdentity } from "./types";

const identity: TSourceIdentity = {
  upstreamSubject: "de_eid:x",
  claims: { given_name: "Erika" },
  loa: 3,
  rawClaims: { GivenNames: "Erika", DateOfBirth: { DateString: "19640812" } },
  evidence: { transaction_id: "t-1", restricted_id: "ABC", timestamp: "2026-03-01T10:00:00.000Z" },
};

describe("buildProvenance", () => {
  it("builds the spec's presentation and metadata from the provider and the source identity", () => {
    const provider = findProvider("de_eid")!;
    const provenance = buildProvenance(provider, identity, {
      verificationId: "ver_01",
      verifiedAt: new Date("2026-03-01T10:00:05Z"),
    });
    expect(provenance).toEqual({
      presentation: {
        channel: { type: "chip", transport: "nfc" },
        credentials: [
          {
            type: "de_eid",
            issuer: {
              id: "https://www.personalausweisportal.de",
              authority_name: "Bundesministerium des Innern und für Heimat",
              is_government: true,
            },
            claims: identity.rawClaims,
            evidence: {
              token: identity.evidence,
              names: "transaction_id;restricted_id;timestamp",
            },
          },
        ],
      },
      _metadata: { verification_id: "ver_01", verified_at: "2026-03-01T10:00:05.000Z" },
    });
    // a copy: later changes to the identity do not leak into a stored provenance
    (identity.rawClaims.DateOfBirth as { DateString: string }).DateString = "x";
    expect(provenance.presentation.credentials[0]!.claims.DateOfBirth).toEqual({ DateString: "19640812" });
  });

  it("adds _metadata.status only when given (match flows)", () => {
    const provider = findProvider("mno_kyc_match")!;
    const at = new Date("2026-03-01T10:00:00Z");
    expect(
      buildProvenance(provider, identity, { verificationId: "v", verifiedAt: at })._metadata,
    ).not.toHaveProperty("status");
    expect(
      buildProvenance(provider, identity, { verificationId: "v", verifiedAt: at, status: "matched" })
        ._metadata,
    ).toEqual({
      verification_id: "v",
      verified_at: at.toISOString(),
      status: "matched",
    });
  });

  it("takes the channel from the catalog, with the Digital Credentials API for wallets in the browser", () => {
    expect(provenanceChannel(findProvider("nl_digid")!)).toEqual({
      type: "centralized_idp",
      transport: "internet",
    });
    expect(provenanceChannel(findProvider("passport")!, "qr")).toEqual({ type: "chip", transport: "nfc" });
    expect(provenanceChannel(findProvider("eudi_wallet")!, "qr")).toEqual({
      type: "wallet",
      transport: "internet",
    });
    expect(provenanceChannel(findProvider("eudi_wallet")!, "dc")).toEqual({
      type: "wallet",
      transport: "dc_api",
    });
  });

  it("lists exactly the token's keys in evidence names", () => {
    expect(buildEvidence({})).toEqual({ token: {}, names: "" });
    expect(buildEvidence({ a: "1", b_c: "2" })).toEqual({ token: { a: "1", b_c: "2" }, names: "a;b_c" });
  });
});
