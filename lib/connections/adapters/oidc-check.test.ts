import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jwksCertificateWarnings } from "./oidc-check";

// a test certificate valid from 2026-11-28T21:43:59Z to 2126-11-04T21:43:59Z
const PEM = readFileSync(path.join(__dirname, "../../testing/fixtures/saml/sp-signing-cert.pem"), "utf8");
const DER = PEM.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, "");
const key = { kty: "RSA", kid: "k1", use: "sig", x5c: [DER] };

describe("the certificates of an issuer's JWKS", () => {
  it("warns for an expired certificate, one expiring within 30 days, and one not valid yet", () => {
    expect(jwksCertificateWarnings([key], new Date("2127-01-01T00:00:00Z"))).toEqual([
      'the certificate of signing key "k1" expired on 2126-11-04T21:43:59.000Z',
    ]);
    expect(jwksCertificateWarnings([key], new Date("2126-10-20T00:00:00Z"))).toEqual([
      'the certificate of signing key "k1" expires on 2126-11-04T21:43:59.000Z, within 30 days',
    ]);
    expect(jwksCertificateWarnings([key], new Date("2026-01-01T00:00:00Z"))).toEqual([
      'the certificate of signing key "k1" is not valid before 2026-11-28T21:43:59.000Z',
    ]);
  });

  it("says nothing for a valid certificate or a key without one, and names one that does not parse", () => {
    expect(
      jwksCertificateWarnings([key, { kty: "EC", kid: "k2" }], new Date("2030-01-01T00:00:00Z")),
    ).toEqual([]);
    expect(jwksCertificateWarnings([{ kty: "RSA", x5c: ["bm90IGEgY2VydA=="] }], new Date())).toEqual([
      "the certificate of signing key 1 does not parse as an X.509 certificate",
    ]);
  });
});
