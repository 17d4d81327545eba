import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

type PersonalData = typeof import("./personal-data");
let pd: PersonalData;

beforeAll(async () => {
  vi.stubEnv("IDV_MASTER_KEY", "unit-test-master-key-personal-data-01");
  vi.resetModules();
  pd = await import("./personal-data");
});
afterAll(() => vi.unstubAllEnvs());

describe("seal and unseal", () => {
  it("read back what was sealed, through the column's parser", () => {
    const matchData = { given_name: "Erika", birthdate: "1964-08-12", address: { locality: "Köln" } };
    const sealed = pd.seal(matchData);
    expect(sealed).not.toContain("Erika");
    expect(pd.unseal(sealed, pd.parseMatchData)).toEqual(matchData);
  });

  it("nothing sealed is undefined", () => {
    expect(pd.unseal(null, pd.parseMatchData)).toBeUndefined();
  });

  it("a sealed value of another shape is refused, naming the column", () => {
    expect(() => pd.unseal(pd.seal(["not", "an", "object"]), pd.parseMatchData)).toThrow(
      /verifications\.match_data_encrypted/,
    );
  });
});

describe("personalDataWipe", () => {
  it("empties every personal-data column and stamps the moment", () => {
    const wipe = pd.personalDataWipe();
    expect(wipe).toMatchObject({
      matchDataEncrypted: null,
      resultEncrypted: null,
      evidenceEncrypted: null,
      upstreamEncrypted: null,
    });
    expect(wipe.personalDataDeletedAt).toBeInstanceOf(Date);
  });
});
