/**
 * The shapes of a native profile (how a catalog provider talks natively, for the sandbox
 * simulator) and the context a profile is given: the disclosed claims, the level of assurance,
 * the moment of authentication and deterministic generators for ids and numbers.
 * Rules:
 * - a disclosure profile turns the disclosed OIDC claims into the scheme's raw answer (provenance
 *   `credentials[].claims`) and its evidence (provenance `evidence.token`); a match profile turns
 *   a match result into the scheme's verdicts;
 * - every generated id or number derives from the seed (provider, identity, reference) and a
 *   label, so a simulated answer is reproducible;
 * - evidence values are strings; an undefined value is left out.
 */
import { createHash } from "node:crypto";
import type { TProviderDefinition } from "../catalog";
import type { TClaimName } from "../claims";
import type { TIdentityClaims } from "../identities";
import type { TMatchResult } from "./types";

export interface TProfileContext {
  provider: TProviderDefinition;
  /** the disclosed claims (OIDC names) */
  claims: TIdentityClaims;
  loa: number;
  /** the person's sex where a national number encodes it, even when not disclosed */
  sex?: "female" | "male";
  /** moment of authentication, when known */
  at?: Date;
  /** deterministic lower-case hex of `length` characters for `label` */
  hex(label: string, length: number): string;
  /** deterministic decimal digits */
  digits(label: string, length: number): string;
  uuid(label: string): string;
  pick<T>(label: string, list: readonly T[]): T;
}

export interface TDisclosureProfile {
  /** the top-level native attribute that carries each OIDC claim (absent: the scheme has none) */
  keys: Partial<Record<TClaimName, string>>;
  raw(ctx: TProfileContext): Record<string, unknown>;
  evidence(ctx: TProfileContext): Record<string, string>;
}

export interface TMatchProfile {
  /** the native verdict key of each comparable OIDC field (absent: the scheme reports none) */
  keys: Partial<Record<TClaimName, string>>;
  answer(result: TMatchResult, ctx: TProfileContext): Record<string, unknown>;
  evidence(ctx: TProfileContext): Record<string, string>;
}

export function profileContext(input: {
  provider: TProviderDefinition;
  claims: TIdentityClaims;
  loa: number;
  seed: string;
  sex?: "female" | "male";
  at?: Date;
}): TProfileContext {
  const hex = (label: string, length: number) => {
    let out = "";
    for (let i = 0; out.length < length; i++) {
      out += createHash("sha256").update(`${input.seed}\u0000${label}\u0000${i}`).digest("hex");
    }
    return out.slice(0, length);
  };
  return {
    provider: input.provider,
    claims: input.claims,
    loa: input.loa,
    ...(input.sex ? { sex: input.sex } : {}),
    ...(input.at ? { at: input.at } : {}),
    hex,
    digits: (label, length) =>
      [...hex(label, length)].map((c) => String(Number.parseInt(c, 16) % 10)).join(""),
    uuid: (label) => {
      const h = hex(label, 32);
      const variant = "89ab"[Number.parseInt(h[16]!, 16) % 4];
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    pick: (label, list) => list[Number.parseInt(hex(label, 8), 16) % list.length]!,
  };
}

/** The ISO 8601 moment of authentication, when known. */
export const authenticatedAt = (ctx: TProfileContext) => ctx.at?.toISOString();

/** The moment of authentication in seconds since the epoch, as OpenID Connect's auth_time. */
export const authTime = (ctx: TProfileContext) =>
  ctx.at ? String(Math.floor(ctx.at.getTime() / 1000)) : undefined;

/** The evidence without the values a scheme does not have (e.g. no moment of authentication). */
export function compact(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The native attribute or verdict key of an OIDC field, if the scheme has one. */
export function nativeKey(
  keys: Readonly<Record<string, string | undefined>>,
  field: string,
): string | undefined {
  return keys[field];
}

/**
 * A profile whose answer maps each claim to one native attribute (with an optional format
 * conversion) plus attributes derived from the claims.
 */
export function flatProfile(spec: {
  keys: Partial<Record<TClaimName, string>>;
  encode?: Partial<Record<TClaimName, (value: unknown, ctx: TProfileContext) => unknown>>;
  extra?: (ctx: TProfileContext) => Record<string, unknown>;
  evidence: (ctx: TProfileContext) => Record<string, string | undefined>;
}): TDisclosureProfile {
  const encoders: Readonly<Record<string, ((value: unknown, ctx: TProfileContext) => unknown) | undefined>> =
    spec.encode ?? {};
  return {
    keys: spec.keys,
    raw(ctx) {
      const claims: Readonly<Record<string, unknown>> = ctx.claims;
      const out: Record<string, unknown> = {};
      for (const [claim, key] of Object.entries(spec.keys)) {
        const value = claims[claim];
        if (value === undefined || value === null || key === undefined) continue;
        const encode = encoders[claim];
        const encoded = encode ? encode(value, ctx) : value;
        if (encoded !== undefined) out[key] = encoded;
      }
      return { ...out, ...spec.extra?.(ctx) };
    },
    evidence: (ctx) => compact(spec.evidence(ctx)),
  };
}
