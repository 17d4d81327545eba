/**
 * The settings of a generic OpenID Connect upstream (lib/providers/adapters/oidc.ts), as an
 * operator stores them on an `oidc` connection (secrets included).
 * Rules:
 * - the issuer is https; an `http:` issuer only with allowInsecureRequests (tests, local development);
 * - claims are renamed by claimMapping: upstream claim name (or a JSON pointer "/a/0/b" into nested
 *   claims) → OIDC claim name known to the service, as `{"prenom": "given_name"}`;
 * - client authentication at the token (and PAR) endpoint: client_secret_basic,
 *   client_secret_post or private_key_jwt (an assertion signed with privateKeyJwk); the method
 *   named needs its credential, and an unset method needs a client secret or a private key
 *   (which one applies: clientAuthMethodOf in ./oidc-client.ts);
 * - `requestObject` needs privateKeyJwk, of a type that fits its signing algorithm;
 * - `authorizationParameters` (acr_values, GOV.UK's vtr, prompt …) may not name the parameters
 *   the adapter sets itself (scope, state, nonce, PKCE, redirect_uri …), 30 at most;
 * - `idTokenDecryptionKey` is a private decryption JWK; both private keys are secrets.
 */
import { z } from "zod";
import { isKnownClaim } from "../claims";
import { algFitsKey, SIGNING_ALGS, ZPrivateDecryptionJwk, ZPrivateSigningJwk } from "./oidc-keys";

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"] as const;

/** The upstream's claim name (or a JSON pointer into its claims) → an OIDC claim name. */
export const ZClaimMapping = z.record(
  z.string().min(1).max(255),
  // not the guard itself: the values stay strings (a mapping names some claims, not all)
  z.string().refine((name): boolean => isKnownClaim(name), "must be an OIDC claim name known to the service"),
);

/**
 * The authorization request parameters the adapter sets itself: a connection's
 * `authorizationParameters` may not name them (`scope` comes from `scopes`).
 */
export const ADAPTER_AUTHORIZATION_PARAMETERS: ReadonlySet<string> = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "response_mode",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
]);

/**
 * Extra authorization request parameters a scheme requires (`acr_values`, GOV.UK's `vtr`,
 * `prompt`, `claims` …): name → value, sent with every authorization request.
 */
export const ZAuthorizationParameters = z
  .record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "must be a parameter name (letters, digits, _ . -)"),
    z.string().max(4096),
  )
  .superRefine((parameters, ctx) => {
    for (const name of Object.keys(parameters))
      if (ADAPTER_AUTHORIZATION_PARAMETERS.has(name))
        ctx.addIssue({
          code: "custom",
          path: [name],
          message:
            name === "scope"
              ? "is set by the adapter: use the scopes setting"
              : "is set by the adapter and cannot be configured",
        });
    if (Object.keys(parameters).length > 30)
      ctx.addIssue({ code: "custom", path: [], message: "must name at most 30 parameters" });
  });

/**
 * The cross-field rules of a complete configuration (secrets included): how the client
 * authenticates, and what a request object needs.
 */
function checkCredentials(
  c: {
    clientAuthMethod?: (typeof CLIENT_AUTH_METHODS)[number] | undefined;
    clientSecret?: string | undefined;
    privateKeyJwk?: { kty: string } | undefined;
    requestObject?: { signingAlg?: (typeof SIGNING_ALGS)[number] | undefined } | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const method = c.clientAuthMethod;
  if (method === "private_key_jwt" && !c.privateKeyJwk)
    ctx.addIssue({
      code: "custom",
      path: ["privateKeyJwk"],
      message: "is required with clientAuthMethod private_key_jwt",
    });
  if ((method === "client_secret_basic" || method === "client_secret_post") && c.clientSecret === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["clientSecret"],
      message: `is required with clientAuthMethod ${method}`,
    });
  if (!method && c.clientSecret === undefined && !c.privateKeyJwk)
    ctx.addIssue({
      code: "custom",
      path: ["clientSecret"],
      message: "is required (or privateKeyJwk, for private_key_jwt)",
    });
  if (c.requestObject && !c.privateKeyJwk)
    ctx.addIssue({
      code: "custom",
      path: ["privateKeyJwk"],
      message: "is required to sign request objects (requestObject)",
    });
  const alg = c.requestObject?.signingAlg;
  if (alg && c.privateKeyJwk && !algFitsKey(c.privateKeyJwk, alg))
    ctx.addIssue({
      code: "custom",
      path: ["requestObject", "signingAlg"],
      message: `${alg} does not fit the ${c.privateKeyJwk.kty} key of privateKeyJwk`,
    });
}

/** The settings of an OIDC connection, secrets included (lib/connections). */
export const ZOidcUpstreamConfig = z
  .object({
    issuer: z.url({ protocol: /^https?$/ }),
    clientId: z.string().min(1).max(255),
    /** client_secret_basic / client_secret_post */
    clientSecret: z.string().min(1).max(1024).optional(),
    /** unset: private_key_jwt when only privateKeyJwk is set, else client_secret_basic (or post) */
    clientAuthMethod: z
      .enum(CLIENT_AUTH_METHODS)
      .optional()
      .describe("Unset: private_key_jwt when only privateKeyJwk is set, else client_secret_basic"),
    /** private JWK (RS256/PS256/ES256) for private_key_jwt and request objects; a secret */
    privateKeyJwk: ZPrivateSigningJwk.optional().describe(
      "A private JWK (RSA or EC P-256; RS256, PS256 or ES256) for private_key_jwt and request objects; its public half is served at /connections/{connectionId}/jwks.json",
    ),
    /** send signed request objects (JAR), signed with privateKeyJwk */
    requestObject: z
      .object({ signingAlg: z.enum(SIGNING_ALGS).optional() })
      .strict()
      .optional(),
    /** push authorization requests (PAR) first; unset: when the upstream's metadata requires it */
    pushedAuthorizationRequests: z
      .boolean()
      .optional()
      .describe("Push authorization requests first (PAR); unset: when the upstream requires it"),
    /** private JWK (RSA-OAEP(-256), ECDH-ES on P-256) decrypting encrypted ID tokens; a secret */
    idTokenDecryptionKey: ZPrivateDecryptionJwk.optional().describe(
      "A private JWK (RSA-OAEP(-256), or ECDH-ES on P-256) decrypting encrypted ID tokens and userinfo JWTs",
    ),
    scopes: z.array(z.string().regex(SCOPE_TOKEN, "must be a scope token")).min(1).max(30).optional(),
    /** extra authorization request parameters (acr_values, vtr, prompt …), in every mode */
    authorizationParameters: ZAuthorizationParameters.optional().describe(
      'Extra authorization request parameters sent with every request (plain, in the signed request object and through PAR alike), e.g. {"acr_values": "eidas2", "vtr": "[\\"Cl.Cm\\"]", "prompt": "login"}; the adapter\'s own (client_id, redirect_uri, response_type, response_mode, scope, state, nonce, code_challenge(_method), request, request_uri) are refused',
    ),
    /** the upstream's claim name (or a JSON pointer into its claims) → OIDC claim name */
    claimMapping: ZClaimMapping.optional().describe(
      'The upstream\'s claim name (or a JSON pointer "/a/0/b") → OIDC claim name, e.g. {"prenom": "given_name"}',
    ),
    /** upstream `acr` value → LoA 0–3 */
    acrToLoa: z.record(z.string().min(1), z.number().int().min(0).max(3)).optional(),
    /** http issuer; tests and local development only */
    allowInsecureRequests: z.boolean().optional(),
  })
  .strict()
  .refine((c) => c.allowInsecureRequests === true || !c.issuer.startsWith("http:"), {
    path: ["issuer"],
    message: "must use https",
  })
  .superRefine(checkCredentials);

/**
 * A claimMapping of the former direction (OIDC claim → upstream name, as IDV_UPSTREAM_OIDC and
 * connections stored before 2026-11-29 wrote it) turned around; anything else as it is.
 */
export function invertLegacyClaimMapping(mapping: unknown): unknown {
  if (!mapping || typeof mapping !== "object" || Array.isArray(mapping)) return mapping;
  return Object.fromEntries(Object.entries(mapping as Record<string, unknown>).map(([k, v]) => [v, k]));
}
export type TOidcUpstreamConfig = z.infer<typeof ZOidcUpstreamConfig>;
