/**
 * Connections (issue 24): the settings schema of each production adapter and the JSON shapes of
 * the Operator API. Pure: no database.
 * Rules:
 * - a connection binds one catalog provider in one environment to an adapter of the registry
 *   (./adapters/registry.ts): `oidc` (an OpenID Provider upstream), `saml` (a SAML 2.0 identity
 *   provider) or `wallet` (the Digital Credentials path); each adapter's module declares its
 *   settings (input and full schemas, secrets, input normalisation), read here — no adapter is
 *   named in this file;
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
import {
  CONNECTION_ADAPTER_MODULES,
  CONNECTION_ADAPTERS,
  type TAdapterSettings,
  type TConnectionAdapter,
} from "./adapters/registry";
import type { TConnectionAdapterModule } from "./adapters/types";

// the adapters are the registry's (./adapters/registry.ts): one module each
export { CONNECTION_ADAPTERS, type TAdapterSettings, type TConnectionAdapter };

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

/** The runtime cache's key of a connection (and its invalidation's). */
export function connectionCacheKey(env: string, providerId: string): string {
  return `${env} ${providerId}`;
}

/** The secrets of each adapter: names of settings that are sealed and never returned. */
export const SECRET_FIELDS = Object.fromEntries(
  CONNECTION_ADAPTERS.map((id) => [id, CONNECTION_ADAPTER_MODULES[id].settings.secretFields]),
) as Record<TConnectionAdapter, readonly string[]>;

const settingsOf = (adapter: TConnectionAdapter): TConnectionAdapterModule["settings"] =>
  CONNECTION_ADAPTER_MODULES[adapter].settings;

/** The schema a PUT's settings for `adapter` are checked with (secrets optional): the back-office form. */
export function settingsInputSchema(adapter: TConnectionAdapter): z.ZodType {
  return settingsOf(adapter).input;
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
  const { input: inputSchema, normaliseInput, secretBelongsTo } = settingsOf(adapter);
  const parsed = parseOrRefuse(inputSchema, normaliseInput ? normaliseInput(input) : input) as Record<
    string,
    unknown
  >;
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
    const belongsTo = secretBelongsTo?.[name];
    if (belongsTo !== undefined && settings[belongsTo] === undefined) continue;
    if (secrets[name] === undefined && kept[name] !== undefined) secrets[name] = kept[name];
  }
  // the whole configuration, as the adapter will read it (a missing secret is named here)
  parseOrRefuse(settingsOf(adapter).full, { ...settings, ...secrets });
  return { settings, secrets, secretsSet };
}

/** The adapter's configuration of a stored connection (its settings and unsealed secrets). */
export function adapterSettings<A extends TConnectionAdapter>(
  adapter: A,
  settings: unknown,
  secrets: Record<string, string>,
): TAdapterSettings[A] {
  return settingsOf(adapter).full.parse({ ...(settings as object), ...secrets }) as TAdapterSettings[A];
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
        "The adapter's settings, secrets included on the way in (oidc: `clientSecret`, `privateKeyJwk`, `idTokenDecryptionKey`; omitted: the stored one is kept). oidc: issuer, clientId, clientAuthMethod (client_secret_basic | client_secret_post | private_key_jwt), clientSecret, privateKeyJwk (a private JWK, RS256/PS256/ES256), requestObject ({signingAlg}: signed request objects), pushedAuthorizationRequests, idTokenDecryptionKey (a private JWK for encrypted ID tokens), scopes, claimMapping (upstream claim name or JSON pointer → OIDC claim name, e.g. prenom → given_name), acrToLoa, authorizationParameters (extra authorization request parameters such as acr_values, vtr, prompt; the adapter's own — client_id, redirect_uri, response_type, response_mode, scope, state, nonce, code_challenge(_method), request, request_uri — are refused), allowInsecureRequests; the public halves of the two keys are served at {PUBLIC_URL}/connections/{connectionId}/jwks.json. saml: metadataXml (the IdP's SAML 2.0 metadata) or metadataUrl (fetched at the PUT through the SSRF guard and stored with it), spEntityId, spSigningCertificate and spSigningPrivateKey (secret; PEM, RSA), optional spEncryptionCertificate and spEncryptionPrivateKey (secret; encrypted assertions), attributeMapping (SAML attribute Name → OIDC claim name or \"sub\"; default the eIDAS natural-person profile), loaMapping (AuthnContextClassRef → LoA 1–3; default the eIDAS LoA URIs), requestedLoa, wantAssertionsSigned (default true), eidas ({spType: public|private, requestedAttributes: {Name: isRequired}}), forceAuthn, attributeConsumingServiceIndex (also an AttributeConsumingService in our SP metadata), organization ({name, displayName, url, lang?} or per language) and contactPerson ({type, company?, email, telephone?} or a list) for our SP metadata, signMetadata (default true: our SP metadata signed with the SP signing key), allowInsecureRequests. wallet: issuers (iss → JWKS), vct, loa.",
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

// the answers of POST …/check: ./check-json.ts (an adapter module's check() returns one)
export {
  ZConnectionCheckJson,
  ZSamlCheckJson,
  type TConnectionCheckJson,
  type TSamlCheckJson,
} from "./check-json";
