/**
 * The sandbox simulator: every catalog provider, driven by its test identities, without any
 * outside network. Rules:
 * - pure and deterministic: the same provider, identity, outcome, matchData (and optional
 *   reference/moment) give the same answer;
 * - the identity defaults to the provider's first `success` identity; an identity of another
 *   provider, or an unknown one, is a 400 naming `identity`;
 * - the requested outcome failure/cancel/expire wins; a `success` request with a failure, cancel
 *   or expiry identity yields that identity's scenario (failure reason `authentication_failed`);
 * - a success discloses the identity's claims restricted to the provider's catalog claims, at the
 *   identity's LoA, with the provider's native answer (rawClaims) and evidence;
 * - match providers compare the caller's matchData with the identity's register record: the
 *   verified subset and the verdict come from `compareMatch`, rawClaims is the upstream verdict in
 *   its native keys; without matchData nothing is verified (matched false).
 */
import { invalidField } from "../../errors";
import type { TProviderDefinition } from "../catalog";
import type { TIdentityClaims, TTestIdentity, TTestPerson } from "../identities";
import { TEST_PEOPLE } from "../test-people";
import { compareMatch, validateMatchData } from "./match";
import { profileContext } from "./native-context";
import { DISCLOSURE_PROFILES, MATCH_PROFILES } from "./native-profiles";
import type { TAdapterOutcome, TSourceIdentity } from "./types";

export type TSimulatedOutcome = "success" | "failure" | "cancel" | "expire";

export interface TSimulateInput {
  outcome: TSimulatedOutcome;
  /** a test identity of this provider; default: its first `success` identity */
  identityId?: string;
  /** match providers: the caller's data to compare (OIDC-normalized keys) */
  matchData?: Record<string, unknown>;
  /** seeds the provider's transaction ids (e.g. the verification id), so sessions differ */
  reference?: string;
  /** moment of authentication; when given, evidence carries the provider's timestamp */
  at?: Date;
}

/** The provider's sandbox test identities (GET /v1/sandbox/identities): copies of the catalog's. */
export function listTestIdentities(provider: TProviderDefinition): TTestIdentity[] {
  return provider.testIdentities.map((t) => ({
    id: t.id,
    scenario: t.scenario,
    description: t.description,
    loa: t.loa,
    claims: structuredClone(t.claims),
  }));
}

function resolveIdentity(provider: TProviderDefinition, identityId: string | undefined) {
  const identity =
    identityId === undefined
      ? provider.testIdentities.find((t) => t.scenario === "success")
      : provider.testIdentities.find((t) => t.id === identityId);
  if (!identity) {
    throw invalidField(
      "identity",
      `unknown test identity for provider ${provider.id}; see GET /v1/sandbox/identities?providerId=${provider.id}`,
    );
  }
  return identity;
}

/** Drops undefined members (a native answer omits what the source did not hold). */
const plainJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function failed(provider: TProviderDefinition): TAdapterOutcome {
  return {
    kind: "failure",
    reason: "authentication_failed",
    message: `${provider.name} reported a failed authentication.`,
  };
}

/** The test person's sex, which national numbers (personnummer, hetu, isikukood) encode. */
function sexOf(provider: TProviderDefinition, claims: TIdentityClaims): { sex?: "female" | "male" } {
  if (claims.gender === "female" || claims.gender === "male") return { sex: claims.gender };
  const people: readonly TTestPerson[] =
    (TEST_PEOPLE as Record<string, readonly TTestPerson[]>)[provider.id] ?? [];
  const person = people.find(
    (p) =>
      p.given_name === claims.given_name ||
      (typeof claims.name === "string" && claims.name.startsWith(p.given_name)),
  );
  return person ? { sex: person.gender } : {};
}

export function simulateOutcome(provider: TProviderDefinition, input: TSimulateInput): TAdapterOutcome {
  const identity = resolveIdentity(provider, input.identityId);
  switch (input.outcome) {
    case "failure":
      return failed(provider);
    case "cancel":
      return { kind: "cancelled" };
    case "expire":
      return { kind: "expired" };
  }
  switch (identity.scenario) {
    case "failure":
      return failed(provider);
    case "cancel":
      return { kind: "cancelled" };
    case "expiry":
      return { kind: "expired" };
  }

  const offered: ReadonlySet<string> = new Set(provider.claims);
  const held = Object.fromEntries(
    Object.entries(identity.claims).filter(([claim]) => offered.has(claim)),
  ) as TIdentityClaims;
  const ctx = profileContext({
    provider,
    claims: held,
    loa: identity.loa,
    seed: `${provider.id}\u0000${identity.id}\u0000${input.reference ?? ""}`,
    ...sexOf(provider, identity.claims),
    ...(input.at ? { at: input.at } : {}),
  });
  const upstreamSubject = `${provider.id}:${identity.id}`;

  if (provider.verificationModel === "match") {
    const profile = MATCH_PROFILES[provider.id];
    if (!profile) throw new Error(`no simulator profile for match provider ${provider.id}`);
    const submitted = input.matchData == null ? {} : validateMatchData(provider, input.matchData)!;
    const { result, verifiedUser } = compareMatch(submitted, held, provider.matchGranularity);
    const source: TSourceIdentity = {
      upstreamSubject,
      claims: verifiedUser,
      loa: identity.loa,
      rawClaims: plainJson(profile.answer(result, ctx)),
      evidence: profile.evidence(ctx),
      match: result,
    };
    return { kind: "success", identity: source };
  }

  const profile = DISCLOSURE_PROFILES[provider.id];
  if (!profile) throw new Error(`no simulator profile for provider ${provider.id}`);
  return {
    kind: "success",
    identity: {
      upstreamSubject,
      claims: structuredClone(held) as Record<string, unknown>,
      loa: identity.loa,
      rawClaims: plainJson(profile.raw(ctx)),
      evidence: profile.evidence(ctx),
    },
  };
}
