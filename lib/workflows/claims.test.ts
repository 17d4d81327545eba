import { describe, expect, it } from "vitest";
import { findProvider } from "../providers/catalog";
import {
  claimsForScopes,
  isKnownClaim,
  isStandardClaim,
  KNOWN_CLAIMS,
  providerSpecificClaims,
} from "./claims";

describe("claims", () => {
  it("knows the OIDC standard claims and the eID extras, nothing else", () => {
    for (const c of ["given_name", "family_name", "birthdate", "address", "email_verified"]) {
      expect(isKnownClaim(c)).toBe(true);
      expect(isStandardClaim(c)).toBe(true);
    }
    for (const c of ["nationality", "document_number", "place_of_birth"]) {
      expect(isKnownClaim(c)).toBe(true);
      expect(isStandardClaim(c)).toBe(false);
    }
    for (const c of ["sub", "shoe_size", "Given_Name", "", "__proto__"]) expect(isKnownClaim(c)).toBe(false);
    expect(new Set(KNOWN_CLAIMS).size).toBe(KNOWN_CLAIMS.length);
  });

  it("maps scopes to claims in catalog order, without duplicates", () => {
    expect(claimsForScopes(["openid", "email"])).toEqual(["email", "email_verified"]);
    expect(claimsForScopes(["document", "nationality", "email", "email"])).toEqual([
      "email",
      "email_verified",
      "nationality",
      "document_type",
      "document_number",
      "document_issuing_country",
      "document_expiry_date",
    ]);
    // an unknown scope that names a known claim gives that claim; other unknown scopes nothing
    expect(claimsForScopes(["document_number", "loyalty", "toString"])).toEqual(["document_number"]);
  });

  it("gives as provider-specific only the claims beyond the standard set", () => {
    expect(providerSpecificClaims(["openid", "profile", "email", "phone", "address"])).toEqual([]);
    expect(providerSpecificClaims(["openid", "profile", "nationality"])).toEqual(["nationality"]);
    expect(providerSpecificClaims(["birth"])).toEqual(["place_of_birth", "birth_family_name"]);
  });

  it("reads the passport's specific claims from the catalog", () => {
    const passport = findProvider("passport")!;
    const specific = providerSpecificClaims(passport.scopes);
    expect(specific.every((c) => !isStandardClaim(c) && isKnownClaim(c))).toBe(true);
    if (passport.scopes.includes("nationality")) expect(specific).toContain("nationality");
  });
});
