import { describe, expect, it } from "vitest";
import { mapUpstreamClaims, ZOidcUpstreamConfig } from "./oidc";

const valid = {
  issuer: "https://login.example-eid.test",
  clientId: "broker",
  clientSecret: "s3cret",
  scopes: ["openid", "profile"],
  claimMapping: {
    nationality: "country_of_citizenship",
    birthdate: "/vc/credentialSubject/birthDate/0/value",
  },
  acrToLoa: { "http://eidas.europa.eu/LoA/high": 3 },
};

function issuePaths(input: unknown): string[] {
  const parsed = ZOidcUpstreamConfig.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
}

describe("ZOidcUpstreamConfig", () => {
  it("accepts a complete configuration", () => {
    expect(ZOidcUpstreamConfig.parse(valid)).toEqual(valid);
    expect(issuePaths({ issuer: "https://x.test", clientId: "c", clientSecret: "s" })).toEqual([]);
  });

  it("refuses plain http unless insecure requests are allowed", () => {
    expect(issuePaths({ ...valid, issuer: "http://127.0.0.1:4000" })).toEqual(["issuer"]);
    expect(issuePaths({ ...valid, issuer: "http://127.0.0.1:4000", allowInsecureRequests: true })).toEqual(
      [],
    );
    expect(issuePaths({ ...valid, issuer: "ftp://x.test" })).toEqual(["issuer"]);
  });

  it("names bad mappings, levels, scopes and unknown fields", () => {
    expect(issuePaths({ ...valid, claimMapping: { surname: "sn" } })).toEqual(["claimMapping.surname"]);
    expect(issuePaths({ ...valid, acrToLoa: { high: 4 } })).toEqual(["acrToLoa.high"]);
    expect(issuePaths({ ...valid, scopes: ["open id"] })).toEqual(["scopes.0"]);
    expect(issuePaths({ ...valid, clientSecret: "" })).toEqual(["clientSecret"]);
    expect(issuePaths({ ...valid, tokenUrl: "https://x.test/token" })).toEqual([""]);
  });
});

describe("mapUpstreamClaims", () => {
  const upstream = {
    sub: "u-1",
    given_name: "Erika",
    family_name: "",
    country_of_citizenship: "DE",
    nationality: "XX",
    email_verified: "true",
    phone_number_verified: false,
    vc: { credentialSubject: { birthDate: [{ value: "1964-08-12" }] } },
    "a/b": { "c~d": "escaped" },
    unknown_claim: "ignored",
  };

  it("takes same-named OIDC claims, lets the mapping win, and skips empty values", () => {
    expect(mapUpstreamClaims(upstream, { nationality: "country_of_citizenship" })).toEqual({
      given_name: "Erika",
      nationality: "DE",
      email_verified: true,
      phone_number_verified: false,
    });
  });

  it("reads nested claims through JSON pointers, with ~1 and ~0 escapes", () => {
    expect(
      mapUpstreamClaims(upstream, {
        birthdate: "/vc/credentialSubject/birthDate/0/value",
        middle_name: "/a~1b/c~0d",
      }),
    ).toMatchObject({ birthdate: "1964-08-12", middle_name: "escaped" });
    expect(mapUpstreamClaims(upstream, { birthdate: "/vc/missing/0" })).not.toHaveProperty("birthdate");
  });
});
