import { DateOnly } from "@owf/mdoc";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  embedDevicePayload,
  issueMdoc,
  makeMdocHolder,
  makeMdocIssuer,
  presentMdoc,
  tamperElement,
  type TMdocHolder,
  type TMdocIssuer,
} from "../../testing/mdoc-double";
import {
  MDL_DOCTYPE,
  MDL_NAMESPACE,
  MDOC_MAX_BYTES,
  mdocSessionTranscript,
  PID_MDOC_DOCTYPE,
  PID_MDOC_NAMESPACE,
  verifyMdocPresentation,
} from "./wallet-mdoc";

const DAY = 24 * 3600 * 1000;

const MDL = {
  family_name: "Mustermann",
  given_name: "Erika",
  birth_date: new DateOnly("1964-08-12"),
  issuing_country: "NL",
  document_number: "NL-0001",
  nationality: "NL",
  sex: 2,
  resident_city: "Utrecht",
  resident_postal_code: "3511 AA",
  resident_country: "NL",
  age_over_18: true,
  portrait: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]),
};

const transcript = (nonce = "n-0S6_WzA2Mj") =>
  mdocSessionTranscript({
    kind: "openid4vp",
    clientId: "x509_san_dns:idv.example",
    nonce,
    responseUri: "https://idv.example/wallet/response",
  });

async function mdl(
  options: {
    issuer?: TMdocIssuer;
    holder?: TMdocHolder;
    validity?: { signed: Date; validFrom: Date; validUntil: Date };
    namespaces?: Record<string, Record<string, unknown>>;
    docType?: string;
  } = {},
) {
  const issuer = options.issuer ?? makeMdocIssuer();
  const holder = options.holder ?? makeMdocHolder();
  const issuerSigned = await issueMdoc(issuer, {
    docType: options.docType ?? MDL_DOCTYPE,
    namespaces: options.namespaces ?? { [MDL_NAMESPACE]: MDL },
    holder,
    ...(options.validity ? { validity: options.validity } : {}),
  });
  const sessionTranscript = await transcript();
  const deviceResponse = await presentMdoc({ issuerSigned, holder, sessionTranscript });
  return { issuer, holder, issuerSigned, sessionTranscript, deviceResponse };
}

async function failureOf(
  promise: ReturnType<typeof verifyMdocPresentation>,
  reason = "invalid_presentation",
) {
  const outcome = await promise;
  expect(outcome.kind).toBe("failure");
  if (outcome.kind !== "failure") throw new Error("unreachable");
  expect(outcome.reason).toBe(reason);
  const message = outcome.message ?? "";
  // never a claim value
  for (const value of ["Mustermann", "Erika", "Mallory", "1964", "NL-0001"])
    expect(message).not.toContain(value);
  return message;
}

describe("verifyMdocPresentation", () => {
  it("accepts an mDL from a trusted IACA root, device-signed over this session's transcript", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl();
    const outcome = await verifyMdocPresentation(deviceResponse, {
      trustedRoots: [issuer.rootPem],
      docType: MDL_DOCTYPE,
      sessionTranscript,
    });
    expect(outcome.kind).toBe("success");
    if (outcome.kind !== "success") throw new Error("unreachable");
    const { claims, evidence, rawClaims, upstreamSubject } = outcome.identity;
    expect(claims).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      birthdate: "1964-08-12",
      nationality: "NL",
      gender: "female",
      address: { locality: "Utrecht", postal_code: "3511 AA", country: "NL" },
    });
    expect(rawClaims[MDL_NAMESPACE]).toMatchObject({
      birth_date: "1964-08-12",
      age_over_18: true,
      portrait: "_9j_4A",
      document_number: "NL-0001",
    });
    expect(evidence).toMatchObject({
      format: "mso_mdoc",
      doc_type: MDL_DOCTYPE,
      issuer: "C=NL, CN=Test Document Signer",
      digest_algorithm: "SHA-256",
      credential_status: "not_checked",
    });
    expect(evidence.iaca_root).toMatch(/^C=NL, CN=Test IACA /);
    expect(evidence.device_key_thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(evidence.valid_until!).getTime()).toBeGreaterThan(Date.now());
    expect(upstreamSubject).toMatch(/^mdoc:[0-9a-f]{64}\|org\.iso\.18013\.5\.1\.mDL\|dk\|[0-9a-f]{64}$/);
  });

  it("maps the EUDI PID (mso_mdoc) and keys the subject on personal_administrative_number", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl({
      docType: PID_MDOC_DOCTYPE,
      namespaces: {
        [PID_MDOC_NAMESPACE]: {
          given_name: "Erika",
          family_name: "Mustermann",
          birth_date: new DateOnly("1964-08-12"),
          nationality: ["DE", "NL"],
          email_address: "erika@example.org",
          personal_administrative_number: "PAN-1",
        },
      },
    });
    const outcome = await verifyMdocPresentation(deviceResponse, {
      trustedRoots: [issuer.rootPem],
      docType: PID_MDOC_DOCTYPE,
      sessionTranscript,
    });
    if (outcome.kind !== "success") throw new Error(JSON.stringify(outcome));
    expect(outcome.identity.claims).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      birthdate: "1964-08-12",
      nationality: "DE",
      email: "erika@example.org",
    });
    expect(outcome.identity.upstreamSubject).toMatch(/\|eu\.europa\.ec\.eudi\.pid\.1\|pan\|PAN-1$/);
  });

  it("accepts the root among others, and keeps zod's default messages app-wide", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl();
    const outcome = await verifyMdocPresentation(deviceResponse, {
      trustedRoots: [makeMdocIssuer().rootPem, issuer.rootPem],
      docType: MDL_DOCTYPE,
      sessionTranscript,
    });
    expect(outcome.kind).toBe("success");
    expect(z.string().safeParse(1).error?.issues[0]?.message).toBe(
      "Invalid input: expected string, received number",
    );
  });

  it("refuses a tampered element value (digest mismatch)", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl();
    const tampered = tamperElement(deviceResponse, MDL_NAMESPACE, "family_name", "Mallory");
    const message = await failureOf(
      verifyMdocPresentation(tampered, {
        trustedRoots: [issuer.rootPem],
        docType: MDL_DOCTYPE,
        sessionTranscript,
      }),
    );
    expect(message).toMatch(/does not match its digest in the MSO/);
  });

  it("refuses another docType than expected, and an MSO naming another docType", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl();
    expect(
      await failureOf(
        verifyMdocPresentation(deviceResponse, {
          trustedRoots: [issuer.rootPem],
          docType: PID_MDOC_DOCTYPE,
          sessionTranscript,
        }),
      ),
    ).toMatch(/docType is not the expected one/);

    // the MSO is for a PID, the document claims to be an mDL
    const { issuerSigned, holder } = await mdl({ issuer, docType: PID_MDOC_DOCTYPE });
    const { DeviceResponse } = await import("@owf/mdoc");
    const pid = DeviceResponse.fromEncodedForOid4Vp(
      await presentMdoc({ issuerSigned, holder, sessionTranscript }),
    );
    const doc = pid.documents![0]!;
    (doc.decodedStructure as unknown as Map<string, unknown>).set("docType", MDL_DOCTYPE);
    expect(
      await failureOf(
        verifyMdocPresentation(pid.encodedForOid4Vp, {
          trustedRoots: [issuer.rootPem],
          docType: MDL_DOCTYPE,
          sessionTranscript,
        }),
      ),
    ).toMatch(/MSO's docType is not the document's/);
  });

  it("refuses a document signer that does not chain to a trusted root", async () => {
    const { sessionTranscript, deviceResponse } = await mdl();
    const message = await failureOf(
      verifyMdocPresentation(deviceResponse, {
        trustedRoots: [makeMdocIssuer().rootPem],
        docType: MDL_DOCTYPE,
        sessionTranscript,
      }),
    );
    expect(message).toBe("the document signer certificate does not chain to a trusted IACA root");
  });

  it("refuses an expired document signer certificate, and an expired IACA root", async () => {
    const now = new Date();
    const expiredSigner = makeMdocIssuer({
      signer: { notBefore: new Date(now.getTime() - 400 * DAY), notAfter: new Date(now.getTime() - DAY) },
    });
    const signed = new Date(now.getTime() - 100 * DAY);
    const validity = { signed, validFrom: signed, validUntil: new Date(now.getTime() + 100 * DAY) };
    const a = await mdl({ issuer: expiredSigner, validity });
    expect(
      await failureOf(
        verifyMdocPresentation(a.deviceResponse, {
          trustedRoots: [expiredSigner.rootPem],
          docType: MDL_DOCTYPE,
          sessionTranscript: a.sessionTranscript,
        }),
      ),
    ).toBe("a certificate of the issuer's chain is outside its validity");

    const expiredRoot = makeMdocIssuer({
      root: { notBefore: new Date(now.getTime() - 400 * DAY), notAfter: new Date(now.getTime() - DAY) },
    });
    const b = await mdl({ issuer: expiredRoot });
    expect(
      await failureOf(
        verifyMdocPresentation(b.deviceResponse, {
          trustedRoots: [expiredRoot.rootPem],
          docType: MDL_DOCTYPE,
          sessionTranscript: b.sessionTranscript,
        }),
      ),
    ).toBe("the IACA root certificate is outside its validity");
  });

  it("fails an expired MSO as credential_expired, a future one as credential_not_yet_valid", async () => {
    const now = Date.now();
    const expired = await mdl({
      validity: {
        signed: new Date(now - 20 * DAY),
        validFrom: new Date(now - 20 * DAY),
        validUntil: new Date(now - DAY),
      },
    });
    expect(
      await failureOf(
        verifyMdocPresentation(expired.deviceResponse, {
          trustedRoots: [expired.issuer.rootPem],
          docType: MDL_DOCTYPE,
          sessionTranscript: expired.sessionTranscript,
        }),
        "credential_expired",
      ),
    ).toMatch(/expired/);

    const future = await mdl({
      validity: {
        signed: new Date(now - DAY),
        validFrom: new Date(now + DAY),
        validUntil: new Date(now + 20 * DAY),
      },
    });
    await failureOf(
      verifyMdocPresentation(future.deviceResponse, {
        trustedRoots: [future.issuer.rootPem],
        docType: MDL_DOCTYPE,
        sessionTranscript: future.sessionTranscript,
      }),
      "credential_not_yet_valid",
    );

    // an expired MSO from an untrusted issuer is not "expired": it is invalid
    await failureOf(
      verifyMdocPresentation(expired.deviceResponse, {
        trustedRoots: [makeMdocIssuer().rootPem],
        docType: MDL_DOCTYPE,
        sessionTranscript: expired.sessionTranscript,
      }),
    );
  });

  it("refuses a device signature over another session's transcript", async () => {
    const { issuer, deviceResponse } = await mdl();
    const message = await failureOf(
      verifyMdocPresentation(deviceResponse, {
        trustedRoots: [issuer.rootPem],
        docType: MDL_DOCTYPE,
        sessionTranscript: await transcript("another-nonce"),
      }),
    );
    expect(message).toMatch(/deviceAuth\) does not verify over this session's transcript/);

    const dcApi = await mdocSessionTranscript({
      kind: "openid4vp-dc-api",
      origin: "https://idv.example",
      nonce: "x",
    });
    await failureOf(
      verifyMdocPresentation(deviceResponse, {
        trustedRoots: [issuer.rootPem],
        docType: MDL_DOCTYPE,
        sessionTranscript: dcApi,
      }),
    );
  });

  it("refuses a replay carrying the original DeviceAuthentication as an embedded payload", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl();
    const replayed = embedDevicePayload(deviceResponse, sessionTranscript);
    const message = await failureOf(
      verifyMdocPresentation(replayed, {
        trustedRoots: [issuer.rootPem],
        docType: MDL_DOCTYPE,
        sessionTranscript: await transcript("another-nonce"),
      }),
    );
    expect(message).toMatch(/embedded payload/);
  });

  it("refuses malformed, non-base64url, empty-document and oversized input without throwing", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl();
    const expect_ = { trustedRoots: [issuer.rootPem], docType: MDL_DOCTYPE, sessionTranscript };
    expect(await failureOf(verifyMdocPresentation("oWdkb2N1bWVudHM", expect_))).toMatch(
      /not a well-formed CBOR/,
    );
    expect(await failureOf(verifyMdocPresentation(deviceResponse.slice(0, 200), expect_))).toMatch(
      /not a well-formed CBOR/,
    );
    expect(await failureOf(verifyMdocPresentation("a+b/", expect_))).toMatch(/not base64url/);
    expect(await failureOf(verifyMdocPresentation("", expect_))).toMatch(/not base64url/);
    // {version: "1.0", status: 0}: no document
    expect(await failureOf(verifyMdocPresentation("omd2ZXJzaW9uYzEuMGZzdGF0dXMA", expect_))).toMatch(
      /exactly one document/,
    );
    const huge = "A".repeat(Math.ceil((MDOC_MAX_BYTES * 4) / 3) + 4);
    expect(await failureOf(verifyMdocPresentation(huge, expect_))).toMatch(/larger than 256 KiB/);
  });

  it("fails, never throws, on byte-level corruption of a valid response", async () => {
    const { issuer, sessionTranscript, deviceResponse } = await mdl();
    const expect_ = { trustedRoots: [issuer.rootPem], docType: MDL_DOCTYPE, sessionTranscript };
    const bytes = Buffer.from(deviceResponse, "base64url");
    let seed = 26;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * bytes.length;
    for (let i = 0; i < 150; i++) {
      const corrupted = Buffer.from(bytes);
      for (let j = 0; j < 1 + (i % 3); j++) {
        const at = Math.floor(random());
        corrupted[at] = corrupted[at]! ^ (1 << (i % 8));
      }
      const outcome = await verifyMdocPresentation(corrupted.toString("base64url"), expect_);
      // a flip inside unused bytes (e.g. a signature's leading zero) may still verify; never an exception
      expect(["success", "failure"]).toContain(outcome.kind);
      if (outcome.kind === "failure") expect(outcome.reason).toBe("invalid_presentation");
    }
  });

  it("refuses when no IACA root is configured or a root is not a certificate", async () => {
    const { sessionTranscript, deviceResponse } = await mdl();
    await failureOf(
      verifyMdocPresentation(deviceResponse, { trustedRoots: [], docType: MDL_DOCTYPE, sessionTranscript }),
    );
    await failureOf(
      verifyMdocPresentation(deviceResponse, {
        trustedRoots: ["not a pem"],
        docType: MDL_DOCTYPE,
        sessionTranscript,
      }),
    );
  });
});
