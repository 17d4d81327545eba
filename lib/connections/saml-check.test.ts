/** The certificate warnings of a saml connection's check: expired, expiring within 30 days, not yet valid. */
import { describe, expect, it } from "vitest";
import { certificateWarnings } from "./saml-check";

const cert = (use: "idp_signing" | "sp_signing" | "sp_encryption", notBefore: string, notAfter: string) => ({
  use,
  subject: `CN=${use}`,
  issuer: `CN=${use}`,
  notBefore,
  notAfter,
  fingerprintSha256: "00",
});

describe("certificateWarnings", () => {
  const now = new Date("2027-01-01T00:00:00.000Z");

  it("warns for an expired certificate and one expiring within 30 days, not for one valid longer", () => {
    const warnings = certificateWarnings(
      [
        cert("idp_signing", "2020-01-01T00:00:00.000Z", "2026-12-31T23:59:59.000Z"),
        cert("sp_signing", "2020-01-01T00:00:00.000Z", "2027-01-30T00:00:00.000Z"),
        cert("sp_encryption", "2020-01-01T00:00:00.000Z", "2027-02-01T00:00:00.000Z"),
      ],
      now,
    );
    expect(warnings).toEqual([
      `the IdP's signing certificate "CN=idp_signing" expired on 2026-12-31T23:59:59.000Z`,
      `our signing certificate (spSigningCertificate) "CN=sp_signing" expires on 2027-01-30T00:00:00.000Z, within 30 days`,
    ]);
  });

  it("warns for a certificate not valid yet", () => {
    expect(
      certificateWarnings(
        [cert("sp_encryption", "2027-06-01T00:00:00.000Z", "2030-01-01T00:00:00.000Z")],
        now,
      ),
    ).toEqual([
      `our encryption certificate (spEncryptionCertificate) "CN=sp_encryption" is not valid before 2027-06-01T00:00:00.000Z`,
    ]);
  });
});
