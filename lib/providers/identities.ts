/**
 * Sandbox test identities: the people a provider's simulator can authenticate, and the scenario
 * identities that drive every outcome a real provider can produce.
 * Rules: ids are `<providerId>-<slug>` and unique across the catalog; every provider has two
 * `success` identities (two different people, so per-person subjects can be told apart) and one
 * each of `failure`, `cancel`, `expiry`, `low_loa` and `missing_claims`; match providers add
 * `mismatch` (the register holds other values than a caller would submit). An identity carries
 * only claims its provider can disclose; `missing_claims` lacks at least one of them; `low_loa`
 * authenticates at LoA 1 (low) whatever the provider usually issues, so minimum-LoA checks can be
 * exercised with every provider.
 */
import type { TClaimName } from "./claims";

export const TEST_SCENARIOS = [
  "success",
  "failure",
  "cancel",
  "expiry",
  "low_loa",
  "missing_claims",
  "mismatch",
] as const;
export type TTestScenario = (typeof TEST_SCENARIOS)[number];

export interface TTestPerson {
  given_name: string;
  family_name: string;
  /** YYYY-MM-DD */
  birthdate: string;
  /** ISO 3166-1 alpha-2 */
  nationality: string;
  gender: "female" | "male";
  address: { street_address: string; postal_code: string; locality: string; country: string };
  email: string;
  /** E.164 */
  phone_number: string;
}

export type TIdentityClaims = Partial<Record<TClaimName, unknown>>;

export interface TTestIdentity {
  id: string;
  scenario: TTestScenario;
  /** what happens when this identity is used */
  description: string;
  /** LoA the simulator reports for this identity */
  loa: number;
  /** what the provider holds about the person (disclosed, or compared for match providers) */
  claims: TIdentityClaims;
}

const SCENARIO_TEXT: Record<Exclude<TTestScenario, "success">, string> = {
  failure: "The provider reports a failed authentication (e.g. wrong PIN three times).",
  cancel: "The end-user cancels at the provider.",
  expiry: "The end-user never finishes; the session times out.",
  low_loa: "Authenticates successfully, but only at LoA 1 (low).",
  missing_claims: "Authenticates successfully; the provider holds no birthdate, nationality or contact data.",
  mismatch: "The register holds other values (family name, birthdate) than the person gives.",
};

function slug(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The claims of `person` that a provider disclosing `claims` would return. */
export function claimsOf(person: TTestPerson, claims: readonly TClaimName[]): TIdentityClaims {
  const all: TIdentityClaims = {
    name: `${person.given_name} ${person.family_name}`,
    given_name: person.given_name,
    family_name: person.family_name,
    birthdate: person.birthdate,
    nationality: person.nationality,
    gender: person.gender,
    address: {
      formatted: `${person.address.street_address}, ${person.address.postal_code} ${person.address.locality}`,
      ...person.address,
    },
    email: person.email,
    email_verified: true,
    phone_number: person.phone_number,
    phone_number_verified: true,
  };
  return Object.fromEntries(claims.filter((c) => c in all).map((c) => [c, all[c]]));
}

const DROPPED_WHEN_MISSING: readonly TClaimName[] = [
  "birthdate",
  "nationality",
  "address",
  "email",
  "email_verified",
  "phone_number",
  "phone_number_verified",
  "gender",
];

export function buildTestIdentities(input: {
  providerId: string;
  claims: readonly TClaimName[];
  loa: number;
  people: readonly [TTestPerson, TTestPerson];
  match: boolean;
}): TTestIdentity[] {
  const { providerId, claims, loa, people, match } = input;
  const [first, second] = people;
  const identities: TTestIdentity[] = people.map((person) => ({
    id: `${providerId}-${slug(`${person.given_name} ${person.family_name}`)}`,
    scenario: "success",
    description: `${person.given_name} ${person.family_name} authenticates successfully.`,
    loa,
    claims: claimsOf(person, claims),
  }));
  const scenarios: Exclude<TTestScenario, "success">[] = [
    "failure",
    "cancel",
    "expiry",
    "low_loa",
    "missing_claims",
    ...(match ? (["mismatch"] as const) : []),
  ];
  for (const scenario of scenarios) {
    let person: TTestPerson = scenario === "cancel" || scenario === "expiry" ? second : first;
    if (scenario === "mismatch")
      person = { ...first, family_name: `${first.family_name}-Other`, birthdate: "1990-01-01" };
    const full = claimsOf(person, claims);
    if (scenario === "missing_claims") for (const c of DROPPED_WHEN_MISSING) delete full[c];
    identities.push({
      id: `${providerId}-${scenario.replace("_", "-")}`,
      scenario,
      description: SCENARIO_TEXT[scenario],
      loa: scenario === "low_loa" ? 1 : loa,
      claims: full,
    });
  }
  return identities;
}
