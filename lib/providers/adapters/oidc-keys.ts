/**
 * The private keys of an OIDC connection (issue 24 §3): `privateKeyJwk` signs the client's
 * assertions (private_key_jwt) and request objects, `idTokenDecryptionKey` decrypts encrypted ID
 * tokens (JWE). Their public halves are served at {PUBLIC_URL}/connections/{connectionId}/jwks.json
 * for the upstream to fetch (lib/connections/jwks.ts).
 * Rules:
 * - a key is a private JWK (an object, or its JSON text): RSA (2048 bits at least) or EC P-256;
 *   a JWK without its private part `d` is refused ("a public key"), as is one Node cannot load;
 * - a signing key signs with RS256 or PS256 (RSA) or ES256 (EC P-256); its `alg`, when set, must be
 *   one of those and fit the key type; `use` must not be "enc";
 * - a decryption key decrypts RSA-OAEP / RSA-OAEP-256 (RSA) or ECDH-ES(+A128KW/A192KW/A256KW)
 *   (EC P-256); `use` must not be "sig";
 * - a key without `kid` gets its RFC 7638 thumbprint, so what we serve and what we sign with agree;
 * - the public JWK we serve has only the public members (kty, n, e / crv, x, y), kid, use and alg.
 */
import crypto from "node:crypto";
import { z } from "zod";

export const SIGNING_ALGS = ["RS256", "PS256", "ES256"] as const;
export type TSigningAlg = (typeof SIGNING_ALGS)[number];
export const DECRYPTION_ALGS = [
  "RSA-OAEP",
  "RSA-OAEP-256",
  "ECDH-ES",
  "ECDH-ES+A128KW",
  "ECDH-ES+A192KW",
  "ECDH-ES+A256KW",
] as const;

export type TPrivateJwk = Record<string, unknown> & { kty: string; kid: string; d: string };

const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  RSA: ["e", "kty", "n"],
  EC: ["crv", "kty", "x", "y"],
};

/** RFC 7638 JWK thumbprint (SHA-256, base64url) of an RSA or EC key. */
export function jwkThumbprint(jwk: Record<string, unknown>): string {
  const members = PUBLIC_MEMBERS[String(jwk.kty)] ?? [];
  const canonical = JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]])));
  return crypto.createHash("sha256").update(canonical).digest("base64url");
}

function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value; // the object schema refuses it with its message
  }
}

/** A signature made with the private key verifies with the JWK's public members. */
function matchesItsPublicKey(key: crypto.KeyObject, jwk: Record<string, unknown>): boolean {
  try {
    const members = PUBLIC_MEMBERS[String(jwk.kty)] ?? [];
    const publicKey = crypto.createPublicKey({
      key: Object.fromEntries(members.map((m) => [m, jwk[m]])) as crypto.JsonWebKey,
      format: "jwk",
    });
    const probe = Buffer.from("idv connection key check");
    return crypto.verify("sha256", probe, publicKey, crypto.sign("sha256", probe, key));
  } catch {
    return false;
  }
}

function privateJwk(purpose: "sig" | "enc") {
  const algs: readonly string[] = purpose === "sig" ? SIGNING_ALGS : DECRYPTION_ALGS;
  return z.preprocess(
    parseJsonText,
    z
      .record(z.string(), z.unknown(), { error: "must be a private JWK (a JSON object)" })
      .superRefine((jwk, ctx) => {
        const refuse = (message: string) => ctx.addIssue({ code: "custom", message });
        if (jwk.kty !== "RSA" && jwk.kty !== "EC") return refuse('must be an RSA or EC ("P-256") JWK');
        if (typeof jwk.d !== "string")
          return refuse('must be a private key: this JWK has no private part "d" (a public key?)');
        if (jwk.kty === "EC" && jwk.crv !== "P-256") return refuse('an EC key must be on curve "P-256"');
        if (jwk.use !== undefined && jwk.use !== purpose)
          return refuse(`"use" must be "${purpose}" (or absent) for this key`);
        if (jwk.alg !== undefined) {
          const fits =
            typeof jwk.alg === "string" &&
            algs.includes(jwk.alg) &&
            (jwk.kty === "RSA" ? /^(RS|PS|RSA-)/.test(jwk.alg) : /^(ES|ECDH-)/.test(jwk.alg));
          if (!fits) return refuse(`"alg" must be one of ${algs.join(", ")} and fit the key type`);
        }
        if (
          jwk.kid !== undefined &&
          (typeof jwk.kid !== "string" || jwk.kid.length === 0 || jwk.kid.length > 255)
        )
          return refuse('"kid" must be a non-empty string');
        let key: crypto.KeyObject;
        try {
          key = crypto.createPrivateKey({ key: jwk as crypto.JsonWebKey, format: "jwk" });
        } catch {
          return refuse("is not a usable private key (Node could not load this JWK)");
        }
        if (jwk.kty === "RSA" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
          return refuse("an RSA key must have 2048 bits at least");
        if (!matchesItsPublicKey(key, jwk)) refuse("its private part does not match its public part");
      })
      .transform(
        (jwk): TPrivateJwk =>
          ({ ...jwk, kid: (jwk.kid as string | undefined) ?? jwkThumbprint(jwk) }) as TPrivateJwk,
      ),
  );
}

/** A private signing JWK (private_key_jwt, request objects). */
export const ZPrivateSigningJwk = privateJwk("sig");
/** A private decryption JWK (encrypted ID tokens). */
export const ZPrivateDecryptionJwk = privateJwk("enc");

/** The algorithm a signing key signs with: `preferred` when given, its `alg`, else RS256 / ES256. */
export function signingAlgOf(jwk: TPrivateJwk, preferred?: TSigningAlg): TSigningAlg {
  if (preferred) return preferred;
  if (typeof jwk.alg === "string" && (SIGNING_ALGS as readonly string[]).includes(jwk.alg))
    return jwk.alg as TSigningAlg;
  return jwk.kty === "EC" ? "ES256" : "RS256";
}

/** Whether `alg` can be used with the key (RS256 or PS256 for RSA, ES256 for EC). */
export function algFitsKey(jwk: Pick<TPrivateJwk, "kty">, alg: TSigningAlg): boolean {
  return jwk.kty === "EC" ? alg === "ES256" : alg !== "ES256";
}

/** The public half of a private JWK, as served: public members, kid, use and alg (when set). */
export function publicJwk(jwk: TPrivateJwk, use: "sig" | "enc"): Record<string, unknown> {
  const members = PUBLIC_MEMBERS[jwk.kty] ?? [];
  return {
    ...Object.fromEntries(members.map((m) => [m, jwk[m]])),
    kid: jwk.kid,
    use,
    ...(typeof jwk.alg === "string" ? { alg: jwk.alg } : {}),
  };
}

/** A WebCrypto key for `alg` from a private JWK (openid-client takes CryptoKeys). */
export async function importPrivateKey(jwk: TPrivateJwk, alg: string): Promise<CryptoKey> {
  const { kid: _kid, use: _use, alg: _alg, key_ops: _ops, ...material } = jwk;
  const algorithm =
    alg === "RS256"
      ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }
      : alg === "PS256"
        ? { name: "RSA-PSS", hash: "SHA-256" }
        : alg === "ES256"
          ? { name: "ECDSA", namedCurve: "P-256" }
          : alg === "RSA-OAEP"
            ? { name: "RSA-OAEP", hash: "SHA-1" }
            : alg === "RSA-OAEP-256"
              ? { name: "RSA-OAEP", hash: "SHA-256" }
              : { name: "ECDH", namedCurve: "P-256" };
  const usages: KeyUsage[] = alg.startsWith("RSA-OAEP")
    ? ["decrypt", "unwrapKey"]
    : alg.startsWith("ECDH")
      ? ["deriveBits"]
      : ["sign"];
  return crypto.webcrypto.subtle.importKey("jwk", material as JsonWebKey, algorithm, false, usages);
}

/** The decryption keys of a private JWK, one per algorithm it may be used with. */
export async function decryptionKeysOf(
  jwk: TPrivateJwk,
): Promise<{ key: CryptoKey; kid: string; alg: string }[]> {
  const algs =
    typeof jwk.alg === "string"
      ? [jwk.alg]
      : jwk.kty === "RSA"
        ? ["RSA-OAEP-256", "RSA-OAEP"]
        : ["ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A192KW", "ECDH-ES+A256KW"];
  const ecdh = jwk.kty === "EC" ? await importPrivateKey(jwk, "ECDH-ES") : undefined;
  return Promise.all(
    algs.map(async (alg) => ({ key: ecdh ?? (await importPrivateKey(jwk, alg)), kid: jwk.kid, alg })),
  );
}
