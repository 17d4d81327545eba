/**
 * The claim names of the service: what providers disclose, what workflows may request or test.
 * Rules:
 * - the standard set is OpenID Connect Core 1.0 §5.1 (without `sub`, which every verification
 *   returns anyway and which is never requested);
 * - the extra claims are the ones eID sources add beyond it (nationality, place of birth, the
 *   identity document); anything else is a typo and is refused by validation;
 * - a provider's claims follow from its catalog scopes: the standard scopes of OIDC Core §5.4
 *   plus our `nationality`, `birth` and `document` scopes; an unknown scope that is itself a known
 *   claim name yields that claim.
 */

export const STANDARD_CLAIMS = [
  "name",
  "given_name",
  "family_name",
  "middle_name",
  "nickname",
  "preferred_username",
  "profile",
  "picture",
  "website",
  "email",
  "email_verified",
  "gender",
  "birthdate",
  "zoneinfo",
  "locale",
  "phone_number",
  "phone_number_verified",
  "address",
  "updated_at",
] as const;

export const EXTRA_CLAIMS = [
  "nationality",
  "place_of_birth",
  "birth_family_name",
  "personal_number",
  "document_type",
  "document_number",
  "document_issuing_country",
  "document_expiry_date",
] as const;

export const KNOWN_CLAIMS = [...STANDARD_CLAIMS, ...EXTRA_CLAIMS] as const;
export type TClaimName = (typeof KNOWN_CLAIMS)[number];

const STANDARD_SET: ReadonlySet<string> = new Set(STANDARD_CLAIMS);
const KNOWN_SET: ReadonlySet<string> = new Set(KNOWN_CLAIMS);

export function isKnownClaim(name: string): name is TClaimName {
  return KNOWN_SET.has(name);
}

export function isStandardClaim(name: string): boolean {
  return STANDARD_SET.has(name);
}

export const SCOPE_CLAIMS: Readonly<Record<string, readonly TClaimName[]>> = {
  openid: [],
  profile: [
    "name",
    "given_name",
    "family_name",
    "middle_name",
    "nickname",
    "preferred_username",
    "profile",
    "picture",
    "website",
    "gender",
    "birthdate",
    "zoneinfo",
    "locale",
    "updated_at",
  ],
  email: ["email", "email_verified"],
  address: ["address"],
  phone: ["phone_number", "phone_number_verified"],
  nationality: ["nationality"],
  birth: ["place_of_birth", "birth_family_name"],
  document: ["document_type", "document_number", "document_issuing_country", "document_expiry_date"],
};

/** Every known claim a source offering these scopes can return, in catalog order. */
export function claimsForScopes(scopes: readonly string[]): TClaimName[] {
  const out = new Set<TClaimName>();
  for (const scope of scopes) {
    const claims = Object.hasOwn(SCOPE_CLAIMS, scope)
      ? SCOPE_CLAIMS[scope]!
      : isKnownClaim(scope)
        ? [scope]
        : [];
    for (const claim of claims) out.add(claim);
  }
  return [...out].sort((a, b) => KNOWN_CLAIMS.indexOf(a) - KNOWN_CLAIMS.indexOf(b));
}

/** The claims a provider gives beyond the OIDC standard set (its "provider specific attributes"). */
export function providerSpecificClaims(scopes: readonly string[]): TClaimName[] {
  return claimsForScopes(scopes).filter((claim) => !isStandardClaim(claim));
}

/** The scopes that together grant `claims` (always with `openid`), in SCOPE_CLAIMS order. */
export function scopesFor(claims: readonly TClaimName[]): string[] {
  return Object.entries(SCOPE_CLAIMS)
    .filter(([scope, granted]) => scope === "openid" || granted.some((c) => claims.includes(c)))
    .map(([scope]) => scope);
}
