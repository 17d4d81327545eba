/**
 * Test only: a wallet double built from the upstream libraries (issuer and holder side of
 * @sd-jwt/sd-jwt-vc, @sd-jwt/jwt-status-list, keys and signatures from @sd-jwt/crypto-nodejs),
 * so the verifier in wallet.ts is exercised by credentials it did not build itself.
 * Rules:
 * - an issuer has one ES256 key (kid) and issues SD-JWT VCs with any disclosure frame (top-level,
 *   nested, array elements) bound to a holder key (cnf.jwk), optionally pointing to a status list;
 * - it also signs Token Status Lists (typ statuslist+jwt, sub = their uri) with the same key;
 * - a holder presents with the library: the disclosures it chooses and a Key Binding JWT.
 * Never imported by production code.
 */
import { Jwt } from "@sd-jwt/core";
import { digest, ES256, generateSalt } from "@sd-jwt/crypto-nodejs";
import { createHeaderAndPayload, StatusList } from "@sd-jwt/jwt-status-list";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import { uint8ArrayToBase64Url } from "@sd-jwt/utils";
import { randomBytes } from "node:crypto";
import type { JWK } from "jose";

/** the library's DisclosureFrame ({_sd: [names or indexes], nested: {...}}), loosely typed */
type TDisclosureFrame = Record<string, unknown>;
/** the library's PresentationFrame ({name: true, nested: {name: true}}), loosely typed */
type TPresentationFrame = Record<string, unknown>;
type TPresent = SDJwtVcInstance["present"];

export interface TDoubleIssuer {
  iss: string;
  kid: string;
  jwks: { keys: JWK[] };
  signer: (data: string) => Promise<string>;
}

export interface TDoubleHolder {
  publicJwk: JWK;
  signer: (data: string) => Promise<string>;
}

export async function makeDoubleIssuer(iss = "https://pid-provider.example"): Promise<TDoubleIssuer> {
  const { publicKey, privateKey } = await ES256.generateKeyPair();
  const kid = randomBytes(6).toString("hex");
  return {
    iss,
    kid,
    jwks: { keys: [{ ...(publicKey as JWK), kid, alg: "ES256", use: "sig" }] },
    signer: await ES256.getSigner(privateKey),
  };
}

export async function makeDoubleHolder(): Promise<TDoubleHolder> {
  const { publicKey, privateKey } = await ES256.generateKeyPair();
  return { publicJwk: publicKey as JWK, signer: await ES256.getSigner(privateKey) };
}

export interface TDoubleIssueOptions {
  vct?: string;
  /** seconds from now */
  expiresIn?: number;
  /** seconds from now; only when given */
  notBefore?: number;
  /** status.status_list of the credential */
  status?: { idx: number; uri: string };
}

/** An SD-JWT VC issued by the library: `claims` with `frame` deciding what is disclosable. */
export async function issueDoubleCredential(
  issuer: TDoubleIssuer,
  holder: TDoubleHolder,
  claims: Record<string, unknown>,
  frame: TDisclosureFrame,
  options: TDoubleIssueOptions = {},
): Promise<string> {
  const instance = new SDJwtVcInstance({
    signer: issuer.signer,
    signAlg: "ES256",
    hasher: digest,
    hashAlg: "sha-256",
    saltGenerator: generateSalt,
  });
  const now = Math.floor(Date.now() / 1000);
  // the library types the frame after the payload; the double takes any frame
  const issue = instance.issue.bind(instance) as (
    payload: Record<string, unknown>,
    frame: unknown,
    options: { header: Record<string, unknown> },
  ) => Promise<string>;
  return issue(
    {
      iss: issuer.iss,
      vct: options.vct ?? "urn:eudi:pid:1",
      iat: now - 60,
      exp: now + (options.expiresIn ?? 3600),
      ...(options.notBefore !== undefined ? { nbf: now + options.notBefore } : {}),
      cnf: { jwk: holder.publicJwk },
      ...(options.status ? { status: { status_list: options.status } } : {}),
      ...claims,
    },
    frame,
    { header: { kid: issuer.kid } },
  );
}

/** What the holder's wallet sends: the chosen disclosures (all when no frame) and a KB-JWT. */
export async function presentDoubleCredential(
  credential: string,
  holder: TDoubleHolder,
  kb: { nonce: string; aud: string },
  frame?: TPresentationFrame,
): Promise<string> {
  const instance = new SDJwtVcInstance({
    hasher: digest,
    saltGenerator: generateSalt,
    kbSigner: holder.signer,
    kbSignAlg: "ES256",
  });
  return instance.present(credential, frame as Parameters<TPresent>[1], {
    kb: { payload: { iat: Math.floor(Date.now() / 1000), aud: kb.aud, nonce: kb.nonce } },
  });
}

/**
 * A misbehaving wallet: a Key Binding JWT (signed with the library's Jwt) over exactly the
 * `presented` issuer JWT and disclosures ("jwt~d1~d2~"), whatever they are.
 */
export async function bindDoublePresentation(
  presented: string,
  holder: TDoubleHolder,
  kb: { nonce: string; aud: string },
): Promise<string> {
  const jwt = new Jwt({
    header: { typ: "kb+jwt", alg: "ES256" },
    payload: {
      iat: Math.floor(Date.now() / 1000),
      aud: kb.aud,
      nonce: kb.nonce,
      sd_hash: uint8ArrayToBase64Url(digest(presented, "sha-256")),
    },
  });
  return `${presented}${await jwt.sign(holder.signer)}`;
}

/** A Token Status List Token for `uri` with these statuses, signed by `issuer`. */
export async function signDoubleStatusList(
  issuer: Pick<TDoubleIssuer, "iss" | "kid" | "signer">,
  uri: string,
  statuses: number[],
  options: { bits?: 1 | 2 | 4 | 8; expiresIn?: number; ttl?: number; sub?: string; typ?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const list = new StatusList(statuses, options.bits ?? 2);
  const { header, payload } = createHeaderAndPayload(
    list,
    {
      iss: issuer.iss,
      sub: options.sub ?? uri,
      iat: now,
      exp: now + (options.expiresIn ?? 3600),
      ...(options.ttl !== undefined ? { ttl: options.ttl } : {}),
    },
    { alg: "ES256", kid: issuer.kid, typ: "statuslist+jwt" },
  );
  if (options.typ) header.typ = options.typ as "statuslist+jwt";
  const jwt = new Jwt({ header, payload });
  return jwt.sign(issuer.signer);
}
