/**
 * Connections (issue 24): the settings schema of each production adapter and the JSON shapes of
 * the Operator API. Pure: no database.
 * Rules:
 * - a connection binds one catalog provider in one environment to an adapter: `oidc` (an OpenID
 *   Provider upstream, settings of lib/providers/adapters/oidc.ts) or `wallet` (the Digital
 *   Credentials path, trust of lib/providers/adapters/wallet.ts); `saml` and vendor APIs come later;
 * - each adapter splits its settings into non-secret ones (stored as JSON, returned) and secrets
 *   (sealed with the master key, never returned: the API answers `clientSecretSet: true`);
 * - on the way in a secret may be omitted when the connection already has one (it is kept); the
 *   merged settings are checked against the adapter's full schema, so a stored connection is
 *   always one the adapter accepts;
 * - every refusal names its field under `settings.` (`settings.issuer`).
 */
import { z } from "zod";
import { validationError, zodDetails } from "../errors/validation";
import { ZOidcUpstreamConfig, type TOidcUpstreamConfig } from "../providers/adapters/oidc";
import { ZWalletTrustConfig, type TWalletTrustConfig } from "../providers/adapters/wallet";

export const CONNECTION_ADAPTERS = ["oidc", "wallet"] as const;
export type TConnectionAdapter = (typeof CONNECTION_ADAPTERS)[number];

export const CONNECTION_STATES = ["not_connected", "connected", "failing", "disabled"] as const;
export type TConnectionState = (typeof CONNECTION_STATES)[number];

/**
 * Why a production provider is not offered (issue 24 §2): no connection (or one its adapter no
 * longer accepts), a disabled one, or a failing one (its last check failed after its last success).
 */
export const UNAVAILABLE_REASONS = ["not_connected", "disabled", "failing"] as const;
export type TUnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** The secrets of each adapter: names of settings that are sealed and never returned. */
export const SECRET_FIELDS: Record<TConnectionAdapter, readonly string[]> = {
  oidc: ["clientSecret"],
  wallet: [],
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
export type TAdapterSettings = { oidc: TOidcUpstreamConfig; wallet: TWalletTrustConfig };

const INPUT: Record<TConnectionAdapter, z.ZodType> = {
  oidc: ZOidcSettingsInput,
  wallet: ZWalletSettingsInput,
};
const FULL: Record<TConnectionAdapter, z.ZodType> = { oidc: ZOidcUpstreamConfig, wallet: ZWalletTrustConfig };

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
  const parsed = parseOrRefuse(INPUT[adapter], input) as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  const secretsSet: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (SECRET_FIELDS[adapter].includes(key)) {
      secrets[key] = value as string;
      secretsSet.push(key);
    } else settings[key] = value;
  }
  for (const name of SECRET_FIELDS[adapter]) {
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
      .describe("The production adapter: `oidc` (an OpenID Provider) or `wallet` (Digital Credentials)"),
    enabled: z.boolean().describe("A disabled connection is kept but runs nothing"),
    settings: z
      .record(z.string(), z.unknown())
      .describe(
        "The adapter's settings, secrets included on the way in (`clientSecret` for oidc; omitted: the stored one is kept). oidc: issuer, clientId, clientSecret, scopes, claimMapping (OIDC claim → upstream claim or JSON pointer), acrToLoa, allowInsecureRequests. wallet: issuers (iss → JWKS), vct, loa.",
      ),
  })
  .strict();
export type TPutConnection = z.infer<typeof ZPutConnection>;

export const ZConnectionJson = z.object({
  providerId: z.string(),
  providerName: z.string(),
  productionAdapter: z.string().describe("The adapter the catalog names for this provider in production"),
  state: z
    .enum(CONNECTION_STATES)
    .describe(
      "not_connected (no connection), disabled (stored, switched off), failing (the last check or sign-in failed after the last success), connected",
    ),
  connectionId: z.string().nullable(),
  adapter: z.enum(CONNECTION_ADAPTERS).nullable(),
  enabled: z.boolean(),
  settings: z.record(z.string(), z.unknown()).nullable().describe("Without secrets"),
  clientSecretSet: z
    .boolean()
    .optional()
    .describe("oidc: whether a client secret is stored (it is never returned)"),
  lastError: z.string().nullable(),
  lastErrorAt: iso.nullable(),
  lastSuccessAt: iso.nullable(),
  createdAt: iso.nullable(),
  updatedAt: iso.nullable(),
});
export type TConnectionJson = z.infer<typeof ZConnectionJson>;

export const ZConnectionCheckJson = z.object({
  providerId: z.string(),
  ok: z.boolean().describe("Discovery and JWKS fetched, the issuer matches and the keys are usable"),
  issuer: z.string().describe("The configured issuer"),
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
  keyCount: z.number().int().describe("Signing keys in the issuer's JWKS"),
  warnings: z.array(z.string()),
  error: z.string().nullable().describe("Why the check failed; null when ok"),
  checkedAt: iso,
});
export type TConnectionCheckJson = z.infer<typeof ZConnectionCheckJson>;
