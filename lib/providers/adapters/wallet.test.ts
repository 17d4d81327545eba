import { describe, expect, it } from "vitest";
import {
  issueTestCredential,
  makeDisclosure,
  makeTestHolder,
  makeTestIssuer,
  makeTestPid,
  presentTestCredential,
  sdDigest,
} from "../../testing/wallet";
import {
  buildWalletRequest,
  readWalletResponse,
  verifyWalletPresentation,
  type TWalletTrustConfig,
} from "./wallet";
import {
  bindDoublePresentation,
  issueDoubleCredential,
  makeDoubleHolder,
  makeDoubleIssuer,
  presentDoubleCredential,
} from "../../testing/wallet-double";

const AUD = "origin:https://idv.example";
const NONCE = "n-0S6_WzA2Mj";
const PID = {
  given_name: "Erika",
  family_name: "Mustermann",
  birth_date: "1964-08-12",
  nationalities: ["DE"],
};

function trust(issuer: { iss: string; jwks: { keys: unknown[] } }, extra: Partial<TWalletTrustConfig> = {}) {
  return {
    issuers: { [issuer.iss]: issuer.jwks },
    vct: ["urn:eudi:pid:1"],
    loa: 3,
    ...extra,
  } as TWalletTrustConfig;
}

async function failureOf(
  promise: ReturnType<typeof verifyWalletPresentation>,
  reason = "invalid_presentation",
) {
  const outcome = await promise;
  expect(outcome.kind).toBe("failure");
  if (outcome.kind !== "failure") throw new Error("unreachable");
  expect(outcome.reason).toBe(reason);
  return outcome.message ?? "";
}

describe("buildWalletRequest", () => {
  it("asks for the PID names of the OIDC claims, once each, unsigned", () => {
    const request = buildWalletRequest({
      nonce: "abc",
      vct: ["urn:eudi:pid:1"],
      claims: ["name", "given_name", "birthdate", "nationality", "gender", "unknown_claim"],
    });
    expect(request).toEqual({
      protocol: "openid4vp-v1-unsigned",
      data: {
        response_type: "vp_token",
        response_mode: "dc_api",
        nonce: "abc",
        dcql_query: {
          credentials: [
            {
              id: "pid",
              format: "dc+sd-jwt",
              meta: { vct_values: ["urn:eudi:pid:1"] },
              claims: [
                { path: ["given_name"] },
                { path: ["family_name"] },
                { path: ["birthdate"] },
                { path: ["nationalities"] },
                { path: ["sex"] },
              ],
            },
          ],
        },
      },
    });
    expect(request.data).not.toHaveProperty("client_id");
  });
});

describe("verifyWalletPresentation", () => {
  it("accepts a valid presentation and maps the disclosed claims", async () => {
    const { issuer, holder, credential } = await makeTestPid({ ...PID, sex: 2 });
    const vp = await presentTestCredential(credential, holder, { nonce: NONCE, aud: AUD });
    const outcome = await verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp);
    expect(outcome.kind).toBe("success");
    if (outcome.kind !== "success") return;
    expect(outcome.identity.claims).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      birthdate: "1964-08-12",
      nationality: "DE",
      gender: "female",
    });
    expect(outcome.identity.rawClaims).toEqual({ ...PID, sex: 2 });
    expect(outcome.identity.loa).toBe(3);
    expect(outcome.identity.evidence).toMatchObject({
      iss: issuer.iss,
      vct: "urn:eudi:pid:1",
      kid: issuer.kid,
      presentation_nonce: NONCE,
    });
    expect(outcome.identity.evidence.holder_key_thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(outcome.identity.upstreamSubject).toContain(issuer.iss);
  });

  it("accepts a presentation with only some disclosures, and EdDSA / ES384 issuers", async () => {
    for (const alg of ["EdDSA", "ES384"] as const) {
      const issuer = await makeTestIssuer("https://pid.example", alg);
      const holder = await makeTestHolder();
      const credential = await issueTestCredential(issuer, PID, { holder });
      const partial = { jwt: credential.jwt, disclosures: credential.disclosures.slice(0, 1) };
      const vp = await presentTestCredential(partial, holder, { nonce: NONCE, aud: AUD });
      const outcome = await verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp);
      expect(outcome.kind === "success" && outcome.identity.claims).toEqual({ given_name: "Erika" });
    }
  });

  it("uses the personal administrative number as subject when disclosed", async () => {
    const { issuer, holder, credential } = await makeTestPid({
      ...PID,
      personal_administrative_number: "X1",
    });
    const vp = await presentTestCredential(credential, holder, { nonce: NONCE, aud: AUD });
    const outcome = await verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp);
    expect(outcome.kind === "success" && outcome.identity.upstreamSubject).toBe(`${issuer.iss}|pan|X1`);
  });

  it("refuses a tampered disclosure", async () => {
    const { issuer, holder, credential } = await makeTestPid(PID);
    const forged = { ...credential, disclosures: [makeDisclosure("birth_date", "2010-01-01")] };
    const vp = await presentTestCredential(forged, holder, { nonce: NONCE, aud: AUD });
    expect(
      await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp)),
    ).toMatch(/not covered/);
  });

  it("refuses a repeated disclosure", async () => {
    const { issuer, holder, credential } = await makeTestPid(PID);
    const twice = { ...credential, disclosures: [credential.disclosures[0]!, credential.disclosures[0]!] };
    const vp = await presentTestCredential(twice, holder, { nonce: NONCE, aud: AUD });
    expect(
      await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp)),
    ).toMatch(/twice/);
  });

  it("refuses a wrong nonce, a wrong audience, an old or mistyped KB-JWT, a bad sd_hash", async () => {
    const { issuer, holder, credential } = await makeTestPid(PID);
    const cases = [
      [{ nonce: "other", aud: AUD }, /nonce/],
      [{ nonce: NONCE, aud: "origin:https://evil.example" }, /audience/],
      [{ nonce: NONCE, aud: AUD, age: 3600 }, /age/],
      [{ nonce: NONCE, aud: AUD, typ: "JWT" }, /typ/],
      [{ nonce: NONCE, aud: AUD, sdHash: sdDigest("something else") }, /sd_hash/],
      [{ nonce: NONCE, aud: AUD, withoutKeyBinding: true }, /no Key Binding/],
    ] as const;
    for (const [options, message] of cases) {
      const vp = await presentTestCredential(credential, holder, options);
      expect(
        await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp)),
      ).toMatch(message);
    }
  });

  it("refuses a KB-JWT signed by another key than cnf.jwk", async () => {
    const { issuer, credential } = await makeTestPid(PID);
    const vp = await presentTestCredential(credential, await makeTestHolder(), { nonce: NONCE, aud: AUD });
    expect(
      await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp)),
    ).toMatch(/Key Binding JWT does not verify/);
  });

  it("refuses an untrusted issuer, a wrong key, another vct, an expired credential, no cnf", async () => {
    const holder = await makeTestHolder();
    const issuer = await makeTestIssuer();
    const impostor = await makeTestIssuer(issuer.iss);
    const stranger = await makeTestIssuer("https://stranger.example");
    const cases = [
      [impostor, {}, /issuer signature/],
      [stranger, {}, /not trusted/],
      [issuer, { vct: "urn:other:1" }, /type is not accepted/],
      // its own reason since issue 26
      [issuer, { expiresIn: -3600 }, /validity period/, "credential_expired"],
      [issuer, { typ: "JWT" }, /wrong typ/],
      [issuer, { holder: null }, /holder key/],
      [issuer, { payload: { _sd_alg: "sha-512" } }, /_sd_alg/],
    ] as const;
    for (const [signer, options, message, reason] of cases) {
      const credential = await issueTestCredential(signer, PID, { holder, ...options });
      const vp = await presentTestCredential(credential, holder, { nonce: NONCE, aud: AUD });
      expect(
        await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp), reason),
      ).toMatch(message);
    }
  });

  it("refuses garbage without throwing", async () => {
    const issuer = await makeTestIssuer();
    for (const vp of ["", "not-a-jwt", "a.b.c~", "a.b.c~x~y"]) {
      await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp));
    }
  });
});

describe("verifyWalletPresentation with the upstream wallet double (@sd-jwt/sd-jwt-vc)", () => {
  const ADDRESS = { street_address: "Heidestraße 17", locality: "Köln", country: "DE" };

  it("accepts nested and array-element disclosures and maps the top-level claims", async () => {
    const issuer = await makeDoubleIssuer();
    const holder = await makeDoubleHolder();
    const credential = await issueDoubleCredential(
      issuer,
      holder,
      { ...PID, nationalities: ["DE", "FR"], address: ADDRESS },
      {
        _sd: ["given_name", "family_name", "birth_date", "nationalities", "address"],
        nationalities: { _sd: [0, 1] },
        address: { _sd: ["street_address", "locality", "country"] },
      },
    );
    // the holder keeps its street and its second nationality to itself
    const vp = await presentDoubleCredential(
      credential,
      holder,
      { nonce: NONCE, aud: AUD },
      {
        given_name: true,
        family_name: true,
        birth_date: true,
        nationalities: { 0: true },
        address: { locality: true, country: true },
      },
    );
    const outcome = await verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp);
    expect(outcome.kind === "success" && outcome.identity.claims).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      birthdate: "1964-08-12",
      nationality: "DE",
      address: { locality: "Köln", country: "DE" },
    });
    expect(outcome.kind === "success" && outcome.identity.evidence).toMatchObject({
      kid: issuer.kid,
      credential_status: "not_provided",
    });
  });

  it("refuses a nested disclosure of another credential", async () => {
    const issuer = await makeDoubleIssuer();
    const holder = await makeDoubleHolder();
    const frame = { _sd: ["address"], address: { _sd: ["locality"] } };
    const mine = await issueDoubleCredential(issuer, holder, { address: ADDRESS }, frame);
    const other = await issueDoubleCredential(issuer, holder, { address: { locality: "Bonn" } }, frame);
    // the other credential's nested disclosure slipped into mine: not referenced by my digests
    const foreign = other.split("~").slice(1, -1);
    const [jwt, ...own] = mine.split("~").filter((part) => part !== "");
    const presented = `${jwt}~${[...own, ...foreign].map((d) => `${d}~`).join("")}`;
    const vp = await bindDoublePresentation(presented, holder, { nonce: NONCE, aud: AUD });
    expect(
      await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp)),
    ).toMatch(/not covered/);
  });

  it("fails an expired credential as credential_expired, a not-yet-valid one as credential_not_yet_valid", async () => {
    const issuer = await makeDoubleIssuer();
    const holder = await makeDoubleHolder();
    const cases = [
      [{ expiresIn: -3600 }, "credential_expired", /expired/],
      [{ notBefore: 3600 }, "credential_not_yet_valid", /not yet valid/],
    ] as const;
    for (const [options, reason, message] of cases) {
      const credential = await issueDoubleCredential(issuer, holder, PID, { _sd: ["given_name"] }, options);
      const vp = await presentDoubleCredential(credential, holder, { nonce: NONCE, aud: AUD });
      expect(
        await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp), reason),
      ).toMatch(message);
    }
  });

  it("within the clock tolerance, a just-expired credential still verifies", async () => {
    const issuer = await makeDoubleIssuer();
    const holder = await makeDoubleHolder();
    const credential = await issueDoubleCredential(
      issuer,
      holder,
      PID,
      { _sd: ["given_name"] },
      { expiresIn: -30 },
    );
    const vp = await presentDoubleCredential(credential, holder, { nonce: NONCE, aud: AUD });
    const outcome = await verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp);
    expect(outcome.kind).toBe("success");
  });

  it("an expired credential with a forged signature is invalid_presentation, not credential_expired", async () => {
    const issuer = await makeDoubleIssuer();
    const impostor = await makeDoubleIssuer(issuer.iss);
    const holder = await makeDoubleHolder();
    const credential = await issueDoubleCredential(
      impostor,
      holder,
      PID,
      { _sd: ["given_name"] },
      { expiresIn: -3600 },
    );
    const vp = await presentDoubleCredential(credential, holder, { nonce: NONCE, aud: AUD });
    expect(
      await failureOf(verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp)),
    ).toMatch(/issuer signature/);
  });
});

describe("readWalletResponse", () => {
  it("reads vp_token, the DC API's data, and a stringified vp_token", () => {
    expect(readWalletResponse({ vp_token: { pid: ["x~"] } })).toEqual({ ok: true, presentations: ["x~"] });
    expect(readWalletResponse({ data: { vp_token: { pid: "y~" } } })).toEqual({
      ok: true,
      presentations: ["y~"],
    });
    expect(readWalletResponse({ data: { vp_token: JSON.stringify({ pid: ["z~"] }) } })).toEqual({
      ok: true,
      presentations: ["z~"],
    });
  });

  it("names the offending field", () => {
    expect(readWalletResponse({})).toMatchObject({ ok: false, field: "vp_token.pid" });
    expect(readWalletResponse({ data: { vp_token: { other: ["x"] } } })).toMatchObject({
      ok: false,
      field: "data.vp_token.pid",
    });
    expect(readWalletResponse({ vp_token: "{nope" })).toMatchObject({ ok: false, field: "vp_token" });
    expect(readWalletResponse(null)).toMatchObject({ ok: false });
  });
});
