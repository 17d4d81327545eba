/**
 * The answer of "Check connection" (POST …/connections/{providerId}/check), whatever the adapter:
 * what each adapter module's check() returns (./adapters). Pure: no database.
 */
import { z } from "zod";

const iso = z.string().describe("ISO 8601 date-time");

const ZCheckedCertificate = z.object({
  use: z.enum(["idp_signing", "sp_signing", "sp_encryption"]),
  subject: z.string(),
  issuer: z.string(),
  notBefore: iso,
  notAfter: iso,
  fingerprintSha256: z.string(),
});

export const ZSamlCheckJson = z.object({
  entityId: z
    .string()
    .nullable()
    .describe("The IdP's entityID (the re-fetched metadata's, when metadataUrl is set)"),
  ssoUrl: z.string().nullable().describe("Its SingleSignOnService of the HTTP-Redirect binding"),
  metadataUrl: z.string().nullable(),
  metadataChanged: z
    .boolean()
    .nullable()
    .describe(
      "The document at metadataUrl differs from the stored one (PUT again to take it); null without metadataUrl",
    ),
  certificates: z.array(ZCheckedCertificate).describe("The IdP's signing certificates and ours"),
});
export type TSamlCheckJson = z.infer<typeof ZSamlCheckJson>;

export const ZConnectionCheckJson = z.object({
  providerId: z.string(),
  ok: z
    .boolean()
    .describe(
      "oidc: discovery and JWKS fetched, the issuer matches and the keys are usable; saml: the IdP metadata (re-fetched from metadataUrl when set) is usable",
    ),
  issuer: z.string().describe("The configured issuer (saml: the stored metadata's entityID)"),
  discoveredIssuer: z.string().nullable(),
  issuerMatches: z.boolean(),
  endpoints: z.object({
    authorization: z.string().nullable(),
    token: z.string().nullable(),
    userinfo: z.string().nullable(),
    jwks: z.string().nullable(),
  }),
  idTokenSigningAlgorithms: z.array(z.string()),
  tokenEndpointAuthMethods: z.array(z.string()),
  keyCount: z
    .number()
    .int()
    .describe("Signing keys in the issuer's JWKS (saml: the IdP's signing certificates)"),
  warnings: z.array(z.string()),
  saml: ZSamlCheckJson.optional().describe("saml connections: what the check found"),
  error: z.string().nullable().describe("Why the check failed; null when ok"),
  checkedAt: iso,
});
export type TConnectionCheckJson = z.infer<typeof ZConnectionCheckJson>;
