import { describe, expect, it } from "vitest";
import { mapSamlAttributes, mapUpstreamClaims, readUpstreamClaim } from "./claim-mapping";

describe("mapUpstreamClaims", () => {
  const upstream = {
    prenom: "Marie",
    nom: "Curie",
    given_name: "ignored when prenom is mapped",
    birthdate: "1867-11-07",
    email_verified: "true",
    vc: { credentialSubject: { nationality: ["PL", "FR"] } },
    empty: "",
    "a/b": "slash",
  };

  it("renames the upstream's claims to the OIDC claims the mapping names (keys upstream, values OIDC)", () => {
    expect(mapUpstreamClaims(upstream, { prenom: "given_name", nom: "family_name" })).toEqual({
      given_name: "Marie",
      family_name: "Curie",
      birthdate: "1867-11-07",
      email_verified: true,
    });
  });

  it("reads same-named claims without a mapping, and leaves out unknown and empty ones", () => {
    expect(mapUpstreamClaims(upstream)).toEqual({
      given_name: "ignored when prenom is mapped",
      birthdate: "1867-11-07",
      email_verified: true,
    });
  });

  it("follows JSON pointers into nested claims, with ~1 and ~0 escapes", () => {
    expect(readUpstreamClaim(upstream, "/vc/credentialSubject/nationality/1")).toBe("FR");
    expect(readUpstreamClaim(upstream, "/a~1b")).toBe("slash");
    expect(readUpstreamClaim(upstream, "/vc/missing/0")).toBeUndefined();
    expect(
      mapUpstreamClaims(upstream, { "/vc/credentialSubject/nationality/0": "nationality" }).nationality,
    ).toBe("PL");
  });

  it("maps nothing for a row naming an unknown OIDC claim", () => {
    const mapped = mapUpstreamClaims(upstream, { prenom: "first_name" });
    expect(mapped).not.toHaveProperty("first_name");
    expect(mapped.given_name).toBe("ignored when prenom is mapped");
  });

  it("reads a claim several upstream names map to from the first of them only", () => {
    expect(mapUpstreamClaims(upstream, { nom: "family_name", missing: "family_name" })).toMatchObject({
      family_name: "Curie",
    });
    expect(mapUpstreamClaims(upstream, { missing: "family_name", nom: "family_name" })).not.toHaveProperty(
      "family_name",
    );
  });

  it("never reads inherited properties as claims", () => {
    expect(mapUpstreamClaims({}, { toString: "name" })).toEqual({});
  });
});

describe("mapSamlAttributes", () => {
  const EIDAS = "http://eidas.europa.eu/attributes/naturalperson/";
  const attributes = {
    [`${EIDAS}PersonIdentifier`]: "IT/IT/0042",
    [`${EIDAS}FirstName`]: "Giulia",
    [`${EIDAS}CurrentGivenName`]: "",
    [`${EIDAS}FamilyName`]: ["Rossi", "Bianchi"],
    name: "read only when a row names it",
  };

  it("reads only the attributes a row names; sub is the subject, never a claim", () => {
    expect(
      mapSamlAttributes(attributes, {
        [`${EIDAS}PersonIdentifier`]: "sub",
        [`${EIDAS}FirstName`]: "given_name",
      }),
    ).toEqual({ claims: { given_name: "Giulia" }, subject: "IT/IT/0042" });
  });

  it("skips empty and multi-valued attributes; the first attribute with a value wins", () => {
    expect(
      mapSamlAttributes(attributes, {
        [`${EIDAS}CurrentGivenName`]: "given_name",
        [`${EIDAS}FirstName`]: "given_name",
        [`${EIDAS}FamilyName`]: "family_name",
        constructor: "nickname",
      }),
    ).toEqual({ claims: { given_name: "Giulia" }, subject: "" });
  });
});

describe("mapUpstreamClaims on an OIDC upstream's claims", () => {
  const upstream = {
    sub: "u-1",
    given_name: "Erika",
    family_name: "",
    country_of_citizenship: "DE",
    nationality: "XX",
    email_verified: "true",
    phone_number_verified: false,
    prenom: "Marianne",
    vc: { credentialSubject: { birthDate: [{ value: "1964-08-12" }] } },
    "a/b": { "c~d": "escaped" },
    unknown_claim: "ignored",
  };

  it("takes same-named OIDC claims, lets the mapping (upstream name → OIDC claim) win, and skips empty values", () => {
    expect(mapUpstreamClaims(upstream, { country_of_citizenship: "nationality" })).toEqual({
      given_name: "Erika",
      nationality: "DE",
      email_verified: true,
      phone_number_verified: false,
    });
    expect(mapUpstreamClaims(upstream, { prenom: "given_name" })).toMatchObject({ given_name: "Marianne" });
  });

  it("reads nested claims through JSON pointers, with ~1 and ~0 escapes", () => {
    expect(
      mapUpstreamClaims(upstream, {
        "/vc/credentialSubject/birthDate/0/value": "birthdate",
        "/a~1b/c~0d": "middle_name",
      }),
    ).toMatchObject({ birthdate: "1964-08-12", middle_name: "escaped" });
    expect(mapUpstreamClaims(upstream, { "/vc/missing/0": "birthdate" })).not.toHaveProperty("birthdate");
  });

  it("reads a mapped claim from the first key naming it, and only own properties", () => {
    expect(mapUpstreamClaims(upstream, { prenom: "given_name", missing: "given_name" })).toMatchObject({
      given_name: "Marianne",
    });
    expect(
      mapUpstreamClaims(upstream, { constructor: "middle_name", toString: "nickname" }),
    ).not.toHaveProperty("middle_name");
  });
});
