/**
 * The `sub` of verifications and ID tokens: a keyed hash of (provider, upstream subject).
 * Rules:
 * - stable per source identity across all apps (spec: "stable per source identity across all
 *   clients") and across both environments, since the input names no app and no environment;
 * - never the raw upstream id, and not computable without IDV_MASTER_KEY: HMAC-SHA256 under a
 *   key derived from the master key with HKDF for this purpose only;
 * - the two inputs are encoded unambiguously, so ("a:b", "c") and ("a", "b:c") differ.
 * Changing the master key changes every subject; it must be kept (see docs/decisions-tokens.md).
 */
import { createHmac, hkdfSync } from "node:crypto";
import { getMasterKey } from "../crypto/master-key";

const SUBJECT_KEY_INFO = "idv-broker/oidc/subject/v1";

/** The subject function for a given master key (exported for tests of the keying). */
export function createSubjectHasher(
  masterKey: Buffer,
): (providerId: string, upstreamSubject: string) => string {
  const key = Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), SUBJECT_KEY_INFO, 32));
  return (providerId, upstreamSubject) => {
    if (!providerId || !upstreamSubject)
      throw new Error("subjectFor needs a provider id and an upstream subject");
    return createHmac("sha256", key)
      .update(JSON.stringify([providerId, upstreamSubject]), "utf8")
      .digest("base64url");
  };
}

let hasher: ((providerId: string, upstreamSubject: string) => string) | undefined;

export function subjectFor(providerId: string, upstreamSubject: string): string {
  hasher ??= createSubjectHasher(getMasterKey());
  return hasher(providerId, upstreamSubject);
}
