/**
 * Connections (issue 24): the settings schema of each production adapter and the JSON shapes of
 * the Operator API. Pure: no database.
 * Rules:
 * - a connection binds one catalog provider in one environment to an adapter: `oidc` (an OpenID
 *   Provider upstream, settings of lib/providers/adapters/oidc.ts), `saml` (a SAML 2.0 identity
 *   provider, settings of ./saml.ts) or `wallet` (the Digital Credentials path, trust of
 *   lib/providers/adapters/wallet.ts); vendor APIs come later;
 * - each adapter splits its settings into non-secret ones (stored as JSON, returned) and secrets
 *   (sealed with the master key, never returned: the API answers `clientSecretSet: true`);
 * - on the way in a secret may be omitted when the connection already has one (it is kept); the
 *   merged settings are checked against the adapter's full schema, so a stored connection is
 *   always one the adapter accepts;
 * - every refusal names its field under `settings.` (`settings.issuer`).
 */
import { z } from "zod";
import type { TFlowType, TProviderDefinition } from "../providers/catalog";
import { validationError, zodDetails } from "../errors/validation";
import { ZOidcUpstreamConfig, type TOidcUpstreamConfig } from "../providers/adapters/oidc";
import type { TSamlUpstreamConfig } from "../providers/adapters/saml-settings";
import { ZWalletTrustConfig, type TWalletTrustConfig } from "../providers/adapters/wallet";
import { flatSamlKeyPairs, SAML_SECRET_FIELDS, ZSamlConnectionConfig, ZSamlSettingsInput } from "./saml";

export const CONNECTION_ADAPTERS = ["oidc", "saml", "wallet"] as const;
export type TConnectionAdapter = (typeof CONNECTION_ADAPTERS)[number];

export const CONNECTION_STATES = ["not_connected", "connected", "failing", "disabled"] as const;
export type TConnectionState = (typeof CONNECTION_STATES)[number];

/**
 * Why a production provider is not offered (issue 24 §2): no connection (or one its adapter no
 * longer accepts), a disabled one, or a failing one (its last check failed after its last success).
 */
export const UNAVAILABLE_REASONS = ["not_connected", "disabled", "failing"] as const;
export type TUnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** The flows each production adapter answers (connectionFlows). */
export const ADAPTER_FLOWS: Record<TConnectionAdapter, readonly TFlowType[]> = {
  oidc: ["redirect"],
  saml: ["redirect"],
  wallet: ["dc"],
};

/**
 * The flows a connection of `adapter` answers for `provider`: a front door (oidc, saml) is a
 * redirect for any provider; a wallet connection answers the provider's own dc flow only.
 */
export function connectionFlows(
  adapter: TConnectionAdapter,
  provider: Pick<TProviderDefinition, "flowTypes">,
): readonly TFlowType[] {
  const flows = ADAPTER_FLOWS[adapter];
  return adapter === "wallet" ? flows.filter((f) => provider.flowTypes.includes(f)) : flows;
}

/** The secrets of each adapter: names of settings that are sealed and never returned. */
export const SECRET_FIELDS: Record<TConnectionAdapter, readonly string[]> = {
  oidc: ["clientSecret", "privateKeyJwk", "idTokenDecryptionKey"],
  saml: SAML_SECRET_FIELDS,
  wallet: [],
};

/**
 * A stored secret kept (when a PUT omits it) only while the setting it belongs to is still sent:
 * a saml encryption private key goes with its certificate.
 */
const SECRET_BELONGS_TO: Partial<Record<TConnectionAdapter, Record<string, string>>> = {
  saml: { spEncryptionPrivateKey: "spEncryptionCertificate" },
};

/** The OIDC settings as a PUT may send them: the adapter's, with the client secret optional. */
const oidcShape = ZOidcUpstreamConfig.shape;
const ZOidcSettingsInput = z
  .object({ ...oidcShape, clientSecret: oidcShape.clientSecret.optional() })
  .strict()
  .refine((c) => c.allowInsecureRequests === true || !c.issuer.startsWith("http:"), {
    path: ["issuer"],
    message: "must use https (or set allowInsecureRequests: true, for local testing only)",
  });

const ZWalletSettingsInput = ZWalletTrustConfig.strict();

/** What each adapter's runtime receives: the settings and secrets together. */
export type TAdapterSettings = {
  oidc: TOidcUpstreamConfig;
  saml: TSamlUpstreamConfig;
  wallet: TWalletTrustConfig;
};

const INPUT: Record<TConnectionAdapter, z.ZodType> = {
  oidc: ZOidcSettingsInput,
  saml: ZSamlSettingsInput,
  wallet: ZWalletSettingsInput,
};
const FULL: Record<TConnectionAdapter, z.ZodType> = {
  oidc: ZOidcUpstreamConfig,
  saml: ZSamlConnectionConfig,
  wallet: ZWalletTrustConfig,
};

/** The schema a PUT's settings for `adapter` are checked with (secrets optional): the back-office form. */
export function settingsInputSchema(adapter: TConnectionAdapter): z.ZodType {
  return INPUT[adapter];
}

function parseOrRefuse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success)
    throw validationError(zodDetails(result.error, "settings"), "Invalid connection settings");
  return result.data;
}

export interface TSplitSettings {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  /** names of the secrets the input set (new or rotated) */
  secretsSet: string[];
}

/**
 * Checks a PUT's settings for `adapter` and splits them; `kept` are the stored secrets of the
 * connection (kept for each secret the input omits). Throws the 400 naming `settings.<field>`.
 */
export function checkSettings(
  adapter: TConnectionAdapter,
  input: unknown,
  kept: Record<string, string>,
): TSplitSettings {
  const parsed = parseOrRefuse(
    INPUT[adapter],
    adapter === "saml" ? flatSamlKeyPairs(input) : input,
  ) as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  const secretsSet: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (SECRET_FIELDS[adapter].includes(key)) {
      // a private JWK is sealed as its JSON text (the adapter's schema reads either)
      secrets[key] = typeof value === "string" ? value : JSON.stringify(value);
      secretsSet.push(key);
    } else settings[key] = value;
  }
  for (const name of SECRET_FIELDS[adapter]) {
    const belongsTo = SECRET_BELONGS_TO[adapter]?.[name];
    if (belongsTo !== undefined && settings[belongsTo] === undefined) continue;
    if (secrets[name] === undefined && kept[name] !== undefined) secrets[name] = kept[name];
  }
  // the whole configuration, as the adapter will read it (a missing secret is named here)
  parseOrRefuse(FULL[adapter], { ...settings, ...secrets });
  return { settings, secrets, secretsSet };
}

/** The adapter's configuration of a stored connection (its settings and unsealed secrets). */
export function adapterSettings<A extends TConnectionAdapter>(
  adapter: A,
  settings: unknown,
  secrets: Record<string, string>,
): TAdapterSettings[A] {
  return FULL[adapter].parse({ ...(settings as object), ...secrets }) as TAdapterSettings[A];
}

// ---------------------------------------------------------------------------------------------
// JSON shapes of the Operator API

const iso = z.string().describe("ISO 8601 date-time");

export const ZPutConnection = z
  .object({
    adapter: z
      .enum(CONNECTION_ADAPTERS, { error: `must be one of: ${CONNECTION_ADAPTERS.join(", ")}` })
      .describe(
        "The production adapter: `oidc` (an OpenID Provider), `saml` (a SAML 2.0 identity provider: eIDAS nodes, SPID, CIE, Cl@ve, DigiD …; not for wallet providers) or `wallet` (Digital Credentials)",
      ),
    enabled: z.boolean().describe("A disabled connection is kept but runs nothing"),
    settings: z
      .record(z.string(), z.unknown())
      .describe(
        "The adapter's settings, secrets included on the way in (oidc: `clientSecret`, `privateKeyJwk`, `idTokenDecryptionKey`; omitted: the stored one is kept). oidc: issuer, clientId, clientAuthMethod (client_secret_basic | client_secret_post | private_key_jwt), clientSecret, privateKeyJwk (a private JWK, RS256/PS256/ES256), requestObject ({signingAlg}: signed request objects), pushedAuthorizationRequests, idTokenDecryptionKey (a private JWK for encrypted ID tokens), scopes, claimMapping (upstream claim name or JSON pointer → OIDC claim name, e.g. prenom → given_name), acrToLoa, allowInsecureRequests; the public halves of the two keys are served at {PUBLIC_URL}/connections/{connectionId}/jwks.json. saml: metadataXml (the IdP's SAML 2.0 metadata) or metadataUrl (fetched at the PUT through the SSRF guard and stored with it), spEntityId, spSigningCertificate and spSigningPrivateKey (secret; PEM, RSA), optional spEncryptionCertificate and spEncryptionPrivateKey (secret; encrypted assertions), attributeMapping (SAML attribute Name → OIDC claim name or \"sub\"; default the eIDAS natural-person profile), loaMapping (AuthnContextClassRef → LoA 1–3; default the eIDAS LoA URIs), requestedLoa, wantAssertionsSigned (default true), eidas ({spType: public|private, requestedAttributes: {Name: isRequired}}), allowInsecureRequests. wallet: issuers (iss → JWKS), vct, loa.",
      ),
  })
  .strict();
export type TPutConnection = z.infer<typeof ZPutConnection>;

export const ZHealthWindow = z.object({
  signIns: z.number().int().describe("Sign-ins that reached the upstream exchange"),
  failures: z
    .number()
    .int()
    .describe(
      "Of those, the ones that failed for an upstream fault (provider_error, provider_unavailable, invalid_response, a timeout); a person cancelling or failing authentication is not counted",
    ),
  errorRate: z.number().nullable().describe("failures / signIns (0–1); null without sign-ins"),
  medianLatencyMs: z
    .number()
    .int()
    .nullable()
    .describe("Median upstream latency, estimated from a histogram; null without sign-ins"),
  maxLatencyMs: z.number().int().nullable().describe("Longest upstream latency; null without sign-ins"),
});
export type THealthWindow = z.infer<typeof ZHealthWindow>;

export const ZConnectionHealth = z
  .object({ lastHour: ZHealthWindow, lastDay: ZHealthWindow })
  .describe(
    "The connection's sign-ins over the last hour and day (5-minute buckets): counts and upstream latency only, no personal data",
  );
export type TConnectionHealth = z.infer<typeof ZConnectionHealth>;

export const ZConnectionJson = z.object({
  providerId: z.string(),
  providerName: z.string(),
  productionAdapter: z.string().describe("The adapter the catalog names for this provider in production"),
  state: z
    .enum(CONNECTION_STATES)
    .describe(
      "not_connected (no connection), disabled (stored, switched off), failing (after the last success, the last check failed or 3 sign-ins in a row failed for an upstream fault), connected",
    ),
  connectionId: z.string().nullable(),
  adapter: z.enum(CONNECTION_ADAPTERS).nullable(),
  enabled: z.boolean(),
  settings: z.record(z.string(), z.unknown()).nullable().describe("Without secrets"),
  clientSecretSet: z
    .boolean()
    .optional()
    .describe("oidc: whether a client secret is stored (it is never returned)"),
  secretsSet: z
    .array(z.string())
    .describe("The names of the adapter's secrets that are stored (their values are never returned)"),
  serviceProvider: z
    .object({
      entityId: z.string(),
      metadataUrl: z.string().describe("Our SP metadata for this connection (give it to the IdP)"),
      acsUrl: z.string().describe("Our assertion consumer service (HTTP-POST)"),
    })
    .optional()
    .describe("saml: what to register at the identity provider"),
  lastError: z.string().nullable(),
  lastErrorAt: iso.nullable(),
  lastSuccessAt: iso.nullable(),
  health: ZConnectionHealth,
  createdAt: iso.nullable(),
  updatedAt: iso.nullable(),
});
export type TConnectionJson = z.infer<typeof ZConnectionJson>;

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
