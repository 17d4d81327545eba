/**
 * SAML connections (issue 24): how a `saml` connection's settings are stored and become the
 * adapter's configuration (lib/providers/adapters/saml-settings.ts), the IdP metadata fetched
 * from `metadataUrl`, and the service provider's URLs.
 * Rules:
 * - the SP key pairs are split: the certificates are settings (returned), the private keys
 *   (`spSigningPrivateKey`, `spEncryptionPrivateKey`) are secrets (sealed, never returned);
 * - the flat settings are checked by the adapter's own schema (ZSamlUpstreamConfig), each of its
 *   issues named by the flat field (spSigningKeyPair.privateKey → spSigningPrivateKey); a private
 *   key must belong to its certificate;
 * - the encryption key pair is both fields or neither (schema.ts drops a kept encryption private
 *   key when its certificate is removed);
 * - `metadataUrl` without `metadataXml` (Operator API PUT): the XML is fetched through the SSRF
 *   guard (lib/http/guarded-fetch.ts: no redirects, 10 s, 512 KiB) before anything is written
 *   and stored with the URL; http only with allowInsecureRequests; a failure is 400 naming
 *   `settings.metadataUrl`;
 * - per connection, the SP metadata is served at {PUBLIC_URL}/verify/saml/{env}/{providerId}/metadata
 *   and the assertion consumer service is …/acs: stable URLs (an operator can name them, and the
 *   SP entityID, before the first PUT; a re-created connection keeps them).
 */
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { z } from "zod";
import { publicUrl } from "../config";
import type { TEnvironment } from "../environments";
import { invalidField } from "../errors";
import { describeFetchError, guardedFetch } from "../http/guarded-fetch";
import {
  parseIdpMetadata,
  ZSamlUpstreamConfig,
  type TSamlUpstreamConfig,
} from "../providers/adapters/saml-settings";

export const SAML_SECRET_FIELDS = ["spSigningPrivateKey", "spEncryptionPrivateKey"] as const;

const METADATA_MAX_BYTES = 512 * 1024;
const METADATA_TIMEOUT_MS = 10_000;

const shape = ZSamlUpstreamConfig.shape;
const ZPem = z
  .string()
  .min(1)
  .max(16 * 1024);

/** The flat settings (certificates and private keys as separate fields) without refinements. */
const flatShape = {
  metadataXml: shape.metadataXml.optional(),
  metadataUrl: shape.metadataUrl,
  spEntityId: shape.spEntityId,
  spSigningCertificate: ZPem,
  spSigningPrivateKey: ZPem,
  spEncryptionCertificate: ZPem.optional(),
  spEncryptionPrivateKey: ZPem.optional(),
  attributeMapping: shape.attributeMapping,
  loaMapping: shape.loaMapping,
  requestedLoa: shape.requestedLoa,
  wantAssertionsSigned: shape.wantAssertionsSigned,
  eidas: shape.eidas,
  forceAuthn: shape.forceAuthn,
  attributeConsumingServiceIndex: shape.attributeConsumingServiceIndex,
  organization: shape.organization,
  contactPerson: shape.contactPerson,
  signMetadata: shape.signMetadata,
  allowInsecureRequests: shape.allowInsecureRequests,
};

type TFlatSettings = {
  [K in keyof typeof flatShape]: z.output<(typeof flatShape)[K]>;
};

/** The adapter's nested configuration of flat settings (not yet checked). */
function nested(flat: Partial<TFlatSettings>): Record<string, unknown> {
  const {
    spSigningCertificate,
    spSigningPrivateKey,
    spEncryptionCertificate,
    spEncryptionPrivateKey,
    ...rest
  } = flat;
  return {
    ...rest,
    spSigningKeyPair: { privateKey: spSigningPrivateKey, certificate: spSigningCertificate },
    ...(spEncryptionCertificate !== undefined
      ? { spEncryptionKeyPair: { privateKey: spEncryptionPrivateKey, certificate: spEncryptionCertificate } }
      : {}),
  };
}

const FLAT_NAMES: Record<string, string> = {
  "spSigningKeyPair.privateKey": "spSigningPrivateKey",
  "spSigningKeyPair.certificate": "spSigningCertificate",
  spSigningKeyPair: "spSigningPrivateKey",
  "spEncryptionKeyPair.privateKey": "spEncryptionPrivateKey",
  "spEncryptionKeyPair.certificate": "spEncryptionCertificate",
  spEncryptionKeyPair: "spEncryptionPrivateKey",
};

/** Whether a PEM private key is the one of a PEM certificate (both already checked as PEM). */
function keyMatchesCertificate(privateKey: string, certificate: string): boolean {
  try {
    const fromKey = createPublicKey(createPrivateKey(privateKey)).export({ type: "spki", format: "der" });
    const fromCert = new X509Certificate(certificate).publicKey.export({ type: "spki", format: "der" });
    return Buffer.compare(fromKey, fromCert) === 0;
  } catch {
    // unreadable: the adapter's schema names the field
    return true;
  }
}

/** The adapter's checks on flat settings, each issue on its flat field. */
function checkFlat(flat: Partial<TFlatSettings>, ctx: z.RefinementCtx): void {
  const result = ZSamlUpstreamConfig.safeParse(nested(flat));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const joined = issue.path.map(String).join(".");
      const name = FLAT_NAMES[joined] ?? FLAT_NAMES[String(issue.path[0])];
      const missing = issue.code === "invalid_type" && / received undefined$/.test(issue.message);
      ctx.addIssue({
        code: "custom",
        path: name ? [name] : issue.path,
        message: missing ? "Required" : issue.message,
      });
    }
    return;
  }
  const config = result.data;
  if (!keyMatchesCertificate(config.spSigningKeyPair.privateKey, config.spSigningKeyPair.certificate))
    ctx.addIssue({
      code: "custom",
      path: ["spSigningPrivateKey"],
      message: "does not belong to spSigningCertificate (send both to rotate them)",
    });
  const encryption = config.spEncryptionKeyPair;
  if (encryption && !keyMatchesCertificate(encryption.privateKey, encryption.certificate))
    ctx.addIssue({
      code: "custom",
      path: ["spEncryptionPrivateKey"],
      message: "does not belong to spEncryptionCertificate (send both to rotate them)",
    });
}

/**
 * A PUT's saml settings with the adapter's key-pair objects (`spSigningKeyPair`,
 * `spEncryptionKeyPair`: `{privateKey, certificate}`), also accepted, turned into the flat fields.
 */
export function flatSamlKeyPairs(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const { spSigningKeyPair, spEncryptionKeyPair, ...rest } = input as Record<string, unknown>;
  const pair = (value: unknown, certificate: string, privateKey: string) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value).map(([k, v]) => [
            k === "certificate" ? certificate : k === "privateKey" ? privateKey : `${certificate}.${k}`,
            v,
          ]),
        )
      : value === undefined
        ? {}
        : { [privateKey]: value };
  return {
    ...rest,
    ...pair(spSigningKeyPair, "spSigningCertificate", "spSigningPrivateKey"),
    ...pair(spEncryptionKeyPair, "spEncryptionCertificate", "spEncryptionPrivateKey"),
  };
}

/**
 * The settings a PUT may send: private keys optional (a stored one is kept), metadataXml optional
 * when metadataUrl is given (the Operator API fetches it first).
 */
export const ZSamlSettingsInput = z
  .object({ ...flatShape, spSigningPrivateKey: ZPem.optional() })
  .strict()
  .superRefine((input, ctx) => {
    if (input.metadataXml === undefined && input.metadataUrl === undefined)
      ctx.addIssue({ code: "custom", path: ["metadataXml"], message: "Required (or metadataUrl)" });
    if (input.spEncryptionPrivateKey !== undefined && input.spEncryptionCertificate === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["spEncryptionCertificate"],
        message: "Required with spEncryptionPrivateKey",
      });
  });

/** The stored settings and secrets together, as the adapter reads them (its nested configuration). */
export const ZSamlConnectionConfig = z
  .object(flatShape)
  .strict()
  .superRefine(checkFlat)
  .transform((flat): TSamlUpstreamConfig => ZSamlUpstreamConfig.parse(nested(flat)));

/** The service provider's URLs of the `saml` connection of `providerId` in `env`. */
export function samlServiceProviderUrls(
  env: TEnvironment,
  providerId: string,
): { metadataUrl: string; acsUrl: string } {
  const base = `${publicUrl()}/verify/saml/${env}/${encodeURIComponent(providerId)}`;
  return { metadataUrl: `${base}/metadata`, acsUrl: `${base}/acs` };
}

/**
 * GETs the IdP metadata at `url` through the SSRF guard; the XML, or an Error saying why not
 * (not https without allowInsecure, refused address, not 200, too large, not IdP metadata).
 */
export async function loadSamlMetadata(url: string, allowInsecure: boolean): Promise<string> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error("is not a URL");
  }
  if (target.protocol !== "https:" && !(target.protocol === "http:" && allowInsecure))
    throw new Error("must use https (or set allowInsecureRequests: true, for local testing only)");
  let response: Response;
  try {
    response = await guardedFetch(target, {
      headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" },
      timeoutMs: METADATA_TIMEOUT_MS,
      maxBytes: METADATA_MAX_BYTES,
    });
  } catch (err) {
    throw new Error(`could not be fetched (${describeFetchError(err).slice(0, 200)})`);
  }
  if (response.status !== 200) throw new Error(`answered HTTP ${response.status}`);
  const xml = await response.text();
  const parsed = parseIdpMetadata(xml);
  if (typeof parsed === "string") throw new Error(`answered a document that ${parsed}`);
  return xml;
}

/**
 * A PUT's saml settings with the metadata fetched when they name only its URL (before anything is
 * written, outside any transaction). 400 naming `settings.metadataUrl` when it cannot be.
 */
export async function withFetchedSamlMetadata(
  settings: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const url = settings.metadataUrl;
  if (typeof url !== "string" || settings.metadataXml !== undefined) return settings;
  try {
    return { ...settings, metadataXml: await loadSamlMetadata(url, settings.allowInsecureRequests === true) };
  } catch (err) {
    throw invalidField("settings.metadataUrl", (err as Error).message);
  }
}
