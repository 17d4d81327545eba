/**
 * Test only: an mdoc issuer and holder built from @owf/mdoc's own issuing and device side, so the
 * verifier in wallet-mdoc.ts is exercised by documents it did not build itself.
 * Rules:
 * - an issuer is an IACA root and a document signer (DS) certificate it issued, both P-256 and
 *   generated here (node:crypto keys; node:crypto cannot write certificates, so the few DER
 *   structures of an X.509 v3 certificate are written below), with any validity period;
 * - documents are issued with the library's Issuer (MSO over the elements, ES256, x5chain = the DS
 *   certificate) and presented with DeviceResponse.createWithDeviceRequest (deviceSignature over
 *   the DeviceAuthentication of the transcript given);
 * - tampering helpers re-encode a DeviceResponse after changing one thing in it.
 * Never imported by production code.
 */
import {
  CoseKey,
  DeviceAuthentication,
  DeviceKey,
  DeviceRequest,
  DeviceResponse,
  DocRequest,
  IssuerSignedItem,
  Issuer,
  ItemsRequest,
  SignatureAlgorithm,
  base64url,
  type IssuerSigned,
  type MdocContext,
} from "@owf/mdoc";
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  X509Certificate,
  type KeyObject,
} from "node:crypto";
import type { JWK } from "jose";

// ---- a minimal DER writer for X.509 v3 certificates (RFC 5280 §4.1) ----

function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  let length: Buffer;
  if (body.length < 0x80) length = Buffer.from([body.length]);
  else {
    const bytes: number[] = [];
    for (let n = body.length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const seq = (...c: Buffer[]) => der(0x30, ...c);
const set = (...c: Buffer[]) => der(0x31, ...c);
const octets = (b: Buffer) => der(0x04, b);
const bits = (b: Buffer) => der(0x03, Buffer.from([0]), b);
const bool = (v: boolean) => der(0x01, Buffer.from([v ? 0xff : 0]));
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return der(0x06, Buffer.from(out));
}
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14) + "Z";
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? der(0x17, Buffer.from(iso.slice(2))) : der(0x18, Buffer.from(iso));
}
function name(country: string, commonName: string): Buffer {
  return seq(
    set(seq(oid("2.5.4.6"), der(0x13, Buffer.from(country)))),
    set(seq(oid("2.5.4.3"), der(0x0c, Buffer.from(commonName)))),
  );
}
function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
}
const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));
/** ISO 18013-5 extended key usage of a document signer (mdlDS) */
const MDL_DS_EKU = "1.0.18013.5.1.2";

export interface TValidity {
  notBefore: Date;
  notAfter: Date;
}

function certificate(input: {
  subject: Buffer;
  issuer: Buffer;
  publicKey: KeyObject;
  issuerKey: KeyObject;
  issuerPublicKey: KeyObject;
  validity: TValidity;
  ca: boolean;
}): X509Certificate {
  const spki = input.publicKey.export({ type: "spki", format: "der" });
  const keyId = (key: KeyObject) =>
    createHash("sha1")
      .update(key.export({ type: "spki", format: "der" }).subarray(-65))
      .digest();
  const serial = randomBytes(12);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const extensions = [
    extension("2.5.29.19", true, input.ca ? seq(bool(true), der(0x02, Buffer.from([0]))) : seq()),
    // keyUsage: keyCertSign + cRLSign for the root, digitalSignature for the document signer
    extension(
      "2.5.29.15",
      true,
      input.ca ? der(0x03, Buffer.from([1, 0x06])) : der(0x03, Buffer.from([7, 0x80])),
    ),
    extension("2.5.29.14", false, octets(keyId(input.publicKey))),
    extension("2.5.29.35", false, seq(der(0x80, keyId(input.issuerPublicKey)))),
    ...(input.ca ? [] : [extension("2.5.29.37", true, seq(oid(MDL_DS_EKU)))]),
  ];
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    ECDSA_SHA256,
    input.issuer,
    seq(time(input.validity.notBefore), time(input.validity.notAfter)),
    input.subject,
    spki,
    der(0xa3, seq(...extensions)),
  );
  const signature = sign("sha256", tbs, input.issuerKey);
  return new X509Certificate(seq(tbs, ECDSA_SHA256, bits(signature)));
}

// ---- the mdoc issuer and holder ----

const DAY = 24 * 3600 * 1000;

function around(now: Date, pastDays: number, futureDays: number): TValidity {
  return {
    notBefore: new Date(now.getTime() - pastDays * DAY),
    notAfter: new Date(now.getTime() + futureDays * DAY),
  };
}

export interface TMdocIssuer {
  /** the IACA root certificate (PEM), what the verifier trusts */
  rootPem: string;
  /** the document signer certificate (DER), carried in the MSO's x5chain */
  signerDer: Uint8Array;
  signerPem: string;
  signerJwk: JWK;
  country: string;
}

export function makeMdocIssuer(
  options: { country?: string; root?: TValidity; signer?: TValidity; now?: Date } = {},
): TMdocIssuer {
  const now = options.now ?? new Date();
  const country = options.country ?? "NL";
  const root = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signer = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const rootName = name(country, `Test IACA ${randomBytes(3).toString("hex")}`);
  const rootCert = certificate({
    subject: rootName,
    issuer: rootName,
    publicKey: root.publicKey,
    issuerKey: root.privateKey,
    issuerPublicKey: root.publicKey,
    validity: options.root ?? around(now, 365, 3650),
    ca: true,
  });
  const signerCert = certificate({
    subject: name(country, "Test Document Signer"),
    issuer: rootName,
    publicKey: signer.publicKey,
    issuerKey: root.privateKey,
    issuerPublicKey: root.publicKey,
    validity: options.signer ?? around(now, 30, 365),
    ca: false,
  });
  return {
    rootPem: rootCert.toString(),
    signerDer: new Uint8Array(signerCert.raw),
    signerPem: signerCert.toString(),
    signerJwk: signer.privateKey.export({ format: "jwk" }) as JWK,
    country,
  };
}

export interface TMdocHolder {
  publicJwk: JWK;
  privateJwk: JWK;
}

export function makeMdocHolder(): TMdocHolder {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    publicJwk: { ...(publicKey.export({ format: "jwk" }) as JWK), alg: "ES256" },
    privateJwk: { ...(privateKey.export({ format: "jwk" }) as JWK), alg: "ES256" },
  };
}

/** The crypto the library's issuing and device side needs (ES256 signing, SHA digests). */
const context: Pick<MdocContext, "crypto" | "cose"> = {
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) =>
      new Uint8Array(createHash(digestAlgorithm.replace("-", "").toLowerCase()).update(bytes).digest()),
    calculateEphemeralMacKey: () => {
      throw new Error("not used");
    },
  },
  cose: {
    sign1: {
      sign: ({ toBeSigned, key }) => {
        const b64 = (v: Uint8Array | undefined) => (v ? base64url.encode(v) : undefined);
        const privateKey = createPrivateKey({
          key: { kty: "EC", crv: "P-256", x: b64(key.x), y: b64(key.y), d: b64(key.d) } as never,
          format: "jwk",
        });
        return new Uint8Array(sign("sha256", toBeSigned, { key: privateKey, dsaEncoding: "ieee-p1363" }));
      },
      verify: () => {
        throw new Error("not used");
      },
    },
    mac0: {
      sign: () => {
        throw new Error("not used");
      },
      verify: () => {
        throw new Error("not used");
      },
    },
  },
};

export interface TMdocIssueOptions {
  docType: string;
  /** namespace → element identifier → value */
  namespaces: Record<string, Record<string, unknown>>;
  holder: TMdocHolder;
  /** the MSO validityInfo; default signed now, valid from now for a year */
  validity?: { signed: Date; validFrom: Date; validUntil: Date };
}

/** An mdoc (IssuerSigned) signed by the issuer's document signer for the holder's device key. */
export async function issueMdoc(issuer: TMdocIssuer, options: TMdocIssueOptions): Promise<IssuerSigned> {
  const now = new Date();
  const mdoc = new Issuer(options.docType, context);
  for (const [namespace, values] of Object.entries(options.namespaces))
    mdoc.addIssuerNamespace(namespace, values);
  return mdoc.sign({
    signingKey: CoseKey.fromJwk(issuer.signerJwk as Record<string, unknown>),
    certificates: [issuer.signerDer],
    algorithm: SignatureAlgorithm.ES256,
    digestAlgorithm: "SHA-256",
    deviceKeyInfo: { deviceKey: DeviceKey.fromJwk(options.holder.publicJwk as Record<string, unknown>) },
    validityInfo: options.validity ?? {
      signed: now,
      validFrom: now,
      validUntil: new Date(now.getTime() + 365 * DAY),
    },
  });
}

/**
 * The holder's DeviceResponse (base64url CBOR, as in an OpenID4VP vp_token) disclosing the
 * elements asked for (default: all), device-signed over the given SessionTranscript.
 */
export async function presentMdoc(input: {
  issuerSigned: IssuerSigned;
  holder: TMdocHolder;
  sessionTranscript: Uint8Array;
  disclose?: Record<string, string[]>;
}): Promise<string> {
  const docType = input.issuerSigned.issuerAuth.mobileSecurityObject.docType;
  const disclose =
    input.disclose ??
    Object.fromEntries(
      [...input.issuerSigned.issuerNamespaces.issuerNamespaces].map(([ns, items]) => [
        ns,
        items.map((item) => item.elementIdentifier),
      ]),
    );
  const deviceRequest = DeviceRequest.create({
    docRequests: [
      DocRequest.create({
        itemsRequest: ItemsRequest.create({
          docType,
          namespaces: Object.fromEntries(
            Object.entries(disclose).map(([ns, names]) => [
              ns,
              Object.fromEntries(names.map((n) => [n, false])),
            ]),
          ),
        }),
      }),
    ],
  });
  const response = await DeviceResponse.createWithDeviceRequest(
    {
      deviceRequest,
      sessionTranscript: input.sessionTranscript,
      issuerSigned: [input.issuerSigned],
      signature: { signingKey: CoseKey.fromJwk(input.holder.privateJwk as Record<string, unknown>) },
    },
    context,
  );
  return response.encodedForOid4Vp;
}

/** The response with one issuer-signed element's value replaced (its digest left as issued). */
export function tamperElement(encoded: string, namespace: string, element: string, value: unknown): string {
  const response = DeviceResponse.fromEncodedForOid4Vp(encoded);
  const items = response.documents![0]!.issuerSigned.issuerNamespaces.issuerNamespaces.get(namespace)!;
  const index = items.findIndex((item) => item.elementIdentifier === element);
  const item = items[index]!;
  items[index] = IssuerSignedItem.fromOptions({
    digestId: item.digestId,
    random: item.random,
    elementIdentifier: element,
    elementValue: value,
  });
  return response.encodedForOid4Vp;
}

/**
 * The response with the DeviceAuthentication of `originalTranscript` embedded as the
 * deviceSignature's payload (instead of detached): a replay onto another session's transcript.
 */
export function embedDevicePayload(encoded: string, originalTranscript: Uint8Array): string {
  const response = DeviceResponse.fromEncodedForOid4Vp(encoded);
  const document = response.documents![0]!;
  const payload = DeviceAuthentication.create({
    sessionTranscript: originalTranscript,
    docType: document.docType,
    deviceNamespaces: document.deviceSigned.deviceNamespaces,
  }).encode({ asDataItem: true });
  const signature = document.deviceSigned.deviceAuth.deviceSignature!;
  (signature.decodedStructure as { payload: Uint8Array | null }).payload = payload;
  return response.encodedForOid4Vp;
}
