/**
 * The crypto of mdoc verification (wallet-mdoc.ts) on node:crypto: the COSE signature
 * algorithms and keys @owf/mdoc hands over, and the document signer's certificate chain to the
 * configured IACA roots.
 * Rules:
 * - a signature is checked with the algorithm of its protected header only, and the key's curve
 *   must be that algorithm's;
 * - the chain runs leaf first to one of the trusted roots: each certificate issued and signed by
 *   the next (or by a root), each issuer a CA, every certificate valid at `now` (with the wallet's
 *   clock tolerance); failures are ChainError with our own message, never certificate content;
 * - verification only: no signing, no MAC.
 */
import {
  createHash,
  createPublicKey,
  randomBytes,
  verify as verifySignature,
  X509Certificate,
} from "node:crypto";
import { base64url, CoseKey, Header, type MdocContext } from "@owf/mdoc";
import type { JWK } from "jose";
import { CLOCK_TOLERANCE_SECONDS, PresentationError } from "./wallet-status";

/** the longest x5chain accepted (document signer, intermediates) */
const MAX_CHAIN_LENGTH = 4;

/** COSE alg → node:crypto digest and the key curve it needs. */
const COSE_ALGORITHMS: Record<number, { hash: string | null; crv: string }> = {
  [-7]: { hash: "sha256", crv: "P-256" },
  [-35]: { hash: "sha384", crv: "P-384" },
  [-36]: { hash: "sha512", crv: "P-521" },
  [-8]: { hash: null, crv: "Ed25519" },
};
const COSE_CURVES: Record<number, string> = { 1: "P-256", 2: "P-384", 3: "P-521", 6: "Ed25519" };

/** The public JWK of an EC2/OKP COSE key, or null for any other key. */
export function publicJwk(key: CoseKey): JWK | null {
  const crv = typeof key.curve === "number" ? COSE_CURVES[key.curve] : undefined;
  if (!crv || !(key.x instanceof Uint8Array)) return null;
  if (crv === "Ed25519") return key.keyType === 1 ? { kty: "OKP", crv, x: base64url.encode(key.x) } : null;
  if (key.keyType !== 2 || !(key.y instanceof Uint8Array)) return null;
  return { kty: "EC", crv, x: base64url.encode(key.x), y: base64url.encode(key.y) };
}

export function pemToDer(pem: string): Uint8Array {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    throw new PresentationError("a configured IACA root is not a PEM certificate");
  }
  return new Uint8Array(cert.raw);
}

function validAt(cert: X509Certificate, now: Date): boolean {
  const skew = CLOCK_TOLERANCE_SECONDS * 1000;
  return (
    new Date(cert.validFrom).getTime() - skew <= now.getTime() &&
    now.getTime() <= new Date(cert.validTo).getTime() + skew
  );
}

function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/** A certificate chain failure; its message is ours (no certificate content). */
class ChainError extends Error {}

/** What the chain check learned, for the evidence. */
export interface TChainState {
  anchor?: X509Certificate;
}

/**
 * x5chain (leaf first) → one of the trusted roots: each certificate issued and signed by the
 * next one (or by a trusted root), each issuer a CA, every certificate valid at `now`.
 */
function verifyChain(x5chain: Uint8Array[], trusted: Uint8Array[], now: Date, state: TChainState): void {
  if (x5chain.length === 0) throw new ChainError("the issuer has no document signer certificate");
  if (x5chain.length > MAX_CHAIN_LENGTH) throw new ChainError("the issuer's x5chain is too long");
  let chain: X509Certificate[];
  try {
    chain = x5chain.map((der) => new X509Certificate(Buffer.from(der)));
  } catch {
    throw new ChainError("the issuer's x5chain holds a malformed certificate");
  }
  const roots = trusted.map((der) => new X509Certificate(Buffer.from(der)));
  for (let i = 0; i < chain.length; i++) {
    const cert = chain[i]!;
    if (!validAt(cert, now))
      throw new ChainError("a certificate of the issuer's chain is outside its validity");
    const pinned = roots.find((root) => root.raw.equals(cert.raw));
    const root = pinned ?? roots.find((candidate) => issuedBy(cert, candidate));
    if (root) {
      if (!validAt(root, now)) throw new ChainError("the IACA root certificate is outside its validity");
      if (!pinned && !root.ca) throw new ChainError("the trusted root certificate is not a CA");
      state.anchor = root;
      return;
    }
    const next = chain[i + 1];
    if (!next || !issuedBy(cert, next)) {
      throw new ChainError("the document signer certificate does not chain to a trusted IACA root");
    }
    if (!next.ca) throw new ChainError("a certificate of the issuer's chain is not a CA");
  }
}

function nameField(name: string, field: string): string[] {
  return name
    .split("\n")
    .map((line) => line.split("="))
    .filter(([key]) => key === field)
    .map(([, ...value]) => value.join("="));
}

/**
 * The crypto @owf/mdoc delegates, on node:crypto; verification only (no signing, no MAC). The
 * chain check records its trust anchor in `state`.
 */
export function mdocContext(state: TChainState): Pick<MdocContext, "crypto" | "cose" | "x509"> {
  return {
    crypto: {
      random: (length) => new Uint8Array(randomBytes(length)),
      digest: ({ digestAlgorithm, bytes }) =>
        new Uint8Array(createHash(digestAlgorithm.replace("-", "").toLowerCase()).update(bytes).digest()),
      calculateEphemeralMacKey: () => {
        throw new Error("deviceMac is not supported");
      },
    },
    cose: {
      sign1: {
        sign: () => {
          throw new Error("the verifier does not sign");
        },
        verify: ({ key, sign1 }) => {
          const alg = sign1.protectedHeaders.headers.get(Header.Algorithm);
          const spec = typeof alg === "number" ? COSE_ALGORITHMS[alg] : undefined;
          const jwk = publicJwk(key);
          if (!spec || !jwk || jwk.crv !== spec.crv) return false;
          try {
            const publicKey = createPublicKey({ key: jwk as never, format: "jwk" });
            return verifySignature(
              spec.hash,
              sign1.toBeSigned,
              { key: publicKey, dsaEncoding: "ieee-p1363" },
              sign1.signature,
            );
          } catch {
            return false;
          }
        },
      },
      mac0: {
        sign: () => {
          throw new Error("deviceMac is not supported");
        },
        verify: () => false,
      },
    },
    x509: {
      getIssuerNameField: ({ certificate, field }) =>
        nameField(new X509Certificate(Buffer.from(certificate)).issuer, field),
      getPublicKey: ({ certificate }) => {
        const jwk = new X509Certificate(Buffer.from(certificate)).publicKey.export({ format: "jwk" });
        return CoseKey.fromJwk(jwk as Record<string, unknown>);
      },
      verifyCertificateChain: ({ trustedCertificates, x5chain, now }) =>
        verifyChain(x5chain, trustedCertificates, now ?? new Date(), state),
      getCertificateData: ({ certificate }) => {
        const cert = new X509Certificate(Buffer.from(certificate));
        return {
          issuerName: cert.issuer,
          subjectName: cert.subject,
          serialNumber: cert.serialNumber,
          thumbprint: cert.fingerprint256.replaceAll(":", "").toLowerCase(),
          notBefore: new Date(cert.validFrom),
          notAfter: new Date(cert.validTo),
          pem: cert.toString(),
        };
      },
    },
  };
}
