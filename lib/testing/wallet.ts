/**
 * Test wallets: a PID issuer and a holder with real keys (jose), and SD-JWT VC presentations
 * built the way a wallet builds them (issuer JWT with _sd digests, disclosures, Key Binding JWT),
 * with knobs to break each part.
 */
import { createHash, randomBytes } from "node:crypto";
import { base64url, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

export interface TTestIssuer {
  iss: string;
  kid: string;
  alg: "ES256" | "ES384" | "EdDSA";
  privateKey: CryptoKey;
  jwks: { keys: JWK[] };
}

export interface TTestHolder {
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function makeTestIssuer(
  iss = "https://pid-provider.example",
  alg: TTestIssuer["alg"] = "ES256",
): Promise<TTestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomBytes(6).toString("hex");
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { iss, kid, alg, privateKey, jwks: { keys: [jwk] } };
}

export async function makeTestHolder(): Promise<TTestHolder> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateKey, publicJwk: await exportJWK(publicKey) };
}

export function sdDigest(text: string): string {
  return base64url.encode(createHash("sha256").update(text, "ascii").digest());
}

export function makeDisclosure(name: string, value: unknown): string {
  const salt = randomBytes(16).toString("base64url");
  return base64url.encode(JSON.stringify([salt, name, value]));
}

export interface TIssueOptions {
  vct?: string;
  /** seconds from now; negative = already expired */
  expiresIn?: number;
  /** more issuer-signed payload (overrides) */
  payload?: Record<string, unknown>;
  typ?: string;
  /** holder key in cnf; null = none */
  holder?: TTestHolder | null;
}

/** An issuer-signed SD-JWT VC: every claim selectively disclosable, at the top level. */
export async function issueTestCredential(
  issuer: TTestIssuer,
  claims: Record<string, unknown>,
  options: TIssueOptions = {},
): Promise<{ jwt: string; disclosures: string[] }> {
  const disclosures = Object.entries(claims).map(([name, value]) => makeDisclosure(name, value));
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    iss: issuer.iss,
    vct: options.vct ?? "urn:eudi:pid:1",
    iat: now - 60,
    exp: now + (options.expiresIn ?? 3600),
    _sd_alg: "sha-256",
    _sd: disclosures.map(sdDigest),
    ...(options.holder === null
      ? {}
      : { cnf: { jwk: (options.holder ?? (await makeTestHolder())).publicJwk } }),
    ...options.payload,
  };
  const jwt = await new SignJWT(payload)
    .setProtectedHeader({ alg: issuer.alg, kid: issuer.kid, typ: options.typ ?? "dc+sd-jwt" })
    .sign(issuer.privateKey);
  return { jwt, disclosures };
}

export interface TPresentOptions {
  nonce: string;
  aud: string;
  /** seconds ago the KB-JWT was made */
  age?: number;
  /** no Key Binding JWT at all (the SD-JWT ends with "~") */
  withoutKeyBinding?: boolean;
  sdHash?: string;
  typ?: string;
}

/** What a wallet sends: issuer JWT ~ disclosures ~ KB-JWT signed by the holder. */
export async function presentTestCredential(
  credential: { jwt: string; disclosures: string[] },
  holder: TTestHolder,
  options: TPresentOptions,
): Promise<string> {
  const presented = `${credential.jwt}~${credential.disclosures.map((d) => `${d}~`).join("")}`;
  if (options.withoutKeyBinding) return presented;
  const kb = await new SignJWT({
    nonce: options.nonce,
    aud: options.aud,
    iat: Math.floor(Date.now() / 1000) - (options.age ?? 0),
    sd_hash: options.sdHash ?? sdDigest(presented),
  })
    .setProtectedHeader({ alg: "ES256", typ: options.typ ?? "kb+jwt" })
    .sign(holder.privateKey);
  return `${presented}${kb}`;
}

/** A PID issuer, a holder, and a credential with these claims bound to the holder. */
export async function makeTestPid(claims: Record<string, unknown>, options: TIssueOptions = {}) {
  const issuer = await makeTestIssuer();
  const holder = await makeTestHolder();
  const credential = await issueTestCredential(issuer, claims, { holder, ...options });
  return { issuer, holder, credential };
}
