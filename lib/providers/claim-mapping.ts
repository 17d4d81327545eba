/**
 * Claim mapping: what a connection's claimMapping makes of an upstream's raw claims — the OIDC
 * adapter's result mapping (lib/providers/adapters/oidc.ts) and the back-office's live preview on
 * the last test sign-in's claims (components/operator/connections/claim-mapping-editor.tsx), one
 * function for both. Pure, no imports beyond the claim list: it runs in the browser too.
 * Rules:
 * - keys of a mapping are the upstream's claim names (or RFC 6901 JSON pointers "/a/0/b" into
 *   nested claims), values OIDC claim names known to the service;
 * - an OIDC claim the mapping names is read from the first upstream name mapped to it only; every
 *   other known OIDC claim under its own name; empty values (undefined, null, "") are left out;
 * - "true"/"false" strings of the *_verified flags become booleans;
 * - a mapping row naming an unknown OIDC claim maps nothing (the API refuses it on save).
 */
import { KNOWN_CLAIMS } from "./claims";

const BOOLEAN_CLAIMS: ReadonlySet<string> = new Set(["email_verified", "phone_number_verified"]);
const KNOWN: ReadonlySet<string> = new Set(KNOWN_CLAIMS);

/** RFC 6901 JSON pointer or a plain claim name. */
export function readUpstreamClaim(claims: Record<string, unknown>, name: string): unknown {
  if (!name.startsWith("/")) return Object.hasOwn(claims, name) ? claims[name] : undefined;
  let node: unknown = claims;
  for (const raw of name.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The claims under OIDC names that `mapping` (upstream name → OIDC claim) makes of `upstream`. */
export function mapUpstreamClaims(
  upstream: Record<string, unknown>,
  mapping: Record<string, string> = {},
): Record<string, unknown> {
  const sourceOf = new Map<string, string>();
  for (const [source, claim] of Object.entries(mapping)) {
    if (KNOWN.has(claim) && !sourceOf.has(claim)) sourceOf.set(claim, source);
  }
  const out: Record<string, unknown> = {};
  for (const claim of KNOWN_CLAIMS) {
    let value = readUpstreamClaim(upstream, sourceOf.get(claim) ?? claim);
    if (value === undefined || value === null || value === "") continue;
    if (BOOLEAN_CLAIMS.has(claim) && (value === "true" || value === "false")) value = value === "true";
    out[claim] = value;
  }
  return out;
}

/** The SAML mapping's name for the attribute that becomes the upstream subject (never a claim). */
export const SAML_SUBJECT = "sub";

/**
 * What a SAML connection's attributeMapping (attribute Name → OIDC claim, or "sub") makes of an
 * assertion's attributes (Name → a value, or a list of values): only attributes a row names are
 * read, single string values only; the first attribute mapped to a claim that has a value wins;
 * "sub" is the upstream subject, never a claim.
 */
export function mapSamlAttributes(
  attributes: Record<string, unknown>,
  mapping: Record<string, string>,
): { claims: Record<string, unknown>; subject: string } {
  const claims: Record<string, unknown> = {};
  let subject = "";
  for (const [name, claim] of Object.entries(mapping)) {
    const value = Object.hasOwn(attributes, name) ? attributes[name] : undefined;
    if (typeof value !== "string" || value === "") continue;
    if (claim === SAML_SUBJECT) subject ||= value;
    else claims[claim] ??= value;
  }
  return { claims, subject };
}
