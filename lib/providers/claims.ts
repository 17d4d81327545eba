/**
 * Claims and scopes of the catalog. Rules: a provider discloses only OpenID Connect standard
 * claims (OIDC Core §5.1) plus `nationality` (OpenID Connect for Identity Assurance), and every
 * claim it discloses is reachable through one of its scopes.
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
  "nationality",
] as const;
export type TClaimName = (typeof STANDARD_CLAIMS)[number];

/** The claims each scope grants (OIDC Core §5.4; `nationality` is our scope for the eKYC claim). */
export const SCOPE_CLAIMS: Record<string, readonly TClaimName[]> = {
  openid: [],
  profile: [
    "name",
    "family_name",
    "given_name",
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
  phone: ["phone_number", "phone_number_verified"],
  address: ["address"],
  nationality: ["nationality"],
};

/** The scopes that together grant `claims` (always with `openid`), in SCOPE_CLAIMS order. */
export function scopesFor(claims: readonly TClaimName[]): string[] {
  return Object.entries(SCOPE_CLAIMS)
    .filter(([scope, granted]) => scope === "openid" || granted.some((c) => claims.includes(c)))
    .map(([scope]) => scope);
}
