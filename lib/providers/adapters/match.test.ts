import { describe, expect, it } from "vitest";
import { apiErrorOf } from "../../testing/api-error";
import { findProvider, type TProviderDefinition } from "../catalog";
import {
  compareMatch,
  foldText,
  NAME_SIMILARITY_THRESHOLD,
  nameSimilarity,
  phoneDigits,
  validateMatchData,
} from "./match";

function provider(id: string): TProviderDefinition {
  return findProvider(id)!;
}

function refusal(fn: () => unknown): { code: string; path: string | undefined } {
  const error = apiErrorOf(fn);
  return { code: error.code, path: error.details[0]?.path };
}

const REGISTER = {
  name: "Erika Mustermann",
  given_name: "Erika",
  family_name: "Mustermann",
  birthdate: "1964-08-12",
  gender: "female",
  nationality: "DE",
  email: "Erika.Mustermann@example.com",
  phone_number: "+4915112345678",
  address: {
    formatted: "Heidestraße 17, 51147 Köln",
    street_address: "Heidestraße 17",
    postal_code: "51147",
    locality: "Köln",
    country: "DE",
  },
};

describe("name folding and similarity", () => {
  it("folds case, diacritics, special letters, hyphens, apostrophes and whitespace", () => {
    expect(foldText("  Müller-Lüdenscheidt ")).toBe("muller ludenscheidt");
    expect(foldText("José  María\tGARCÍA")).toBe("jose maria garcia");
    expect(foldText("Weiß")).toBe("weiss");
    expect(foldText("Łukasz Wiśniewski")).toBe("lukasz wisniewski");
    expect(foldText("O’Brien")).toBe("obrien");
    expect(foldText("Søren Kierkegaard")).toBe("soren kierkegaard");
    expect(foldText("ﬁnn")).toBe("finn"); // NFKD compatibility ligature
  });

  it("scores 100 for the same name written differently", () => {
    expect(nameSimilarity("Mari-Liis Männik", "MARI LIIS MANNIK")).toBe(100);
    expect(nameSimilarity("Garcia Lopez", "López García")).toBe(100);
    expect(nameSimilarity("Weiß", "Weiss")).toBe(100);
  });

  it("tolerates one typo in a long name, not in a short one or an appended name", () => {
    expect(nameSimilarity("Mustermann", "Musterman")).toBe(90);
    expect(nameSimilarity("Mustermann", "Mustremann")).toBe(90); // transposition counts once
    expect(nameSimilarity("Mustermann", "Musterman")).toBeGreaterThanOrEqual(NAME_SIMILARITY_THRESHOLD);
    expect(nameSimilarity("Erika", "Erica")).toBe(80);
    expect(nameSimilarity("Erika", "Erica")).toBeLessThan(NAME_SIMILARITY_THRESHOLD);
    expect(nameSimilarity("Mustermann", "Mustermann-Other")).toBe(63);
    expect(nameSimilarity("Jan", "Jon")).toBe(67);
    expect(nameSimilarity("Anna", "Bert")).toBe(0);
  });

  it("reads phone numbers as E.164 digits", () => {
    expect(phoneDigits("+49 (151) 1234-5678")).toBe("4915112345678");
    expect(phoneDigits("0049 151 12345678")).toBe("4915112345678");
  });
});

describe("compareMatch per_field", () => {
  it("reports each field with its verdict, similarity for names, and verifies the matched submitted values", () => {
    const submitted = {
      given_name: "erika",
      family_name: "Mustermannn",
      birthdate: "1964-08-12",
      email: "ERIKA.MUSTERMANN@EXAMPLE.COM",
      phone_number: "0049 151 1234 5678",
      nationality: "de",
      gender: "F",
      address: { street_address: "Heidestr. 17", postal_code: "51147" },
    };
    const { result, verifiedUser } = compareMatch(submitted, REGISTER, "per_field");
    expect(result).toEqual({
      matched: true,
      granularity: "per_field",
      submitted_fields: Object.keys(submitted),
      details: {
        given_name: { matched: true, submitted_value: "erika", similarity: 100 },
        family_name: { matched: true, submitted_value: "Mustermannn", similarity: 91 },
        birthdate: { matched: true, submitted_value: "1964-08-12" },
        email: { matched: true, submitted_value: "ERIKA.MUSTERMANN@EXAMPLE.COM" },
        phone_number: { matched: true, submitted_value: "0049 151 1234 5678" },
        nationality: { matched: true, submitted_value: "de" },
        gender: { matched: true, submitted_value: "F" },
        address: { matched: true, submitted_value: { street_address: "Heidestr. 17", postal_code: "51147" } },
      },
    });
    // the caller's values, not the register's
    expect(verifiedUser).toEqual(submitted);
  });

  it("verifies only the matched fields when some differ", () => {
    const { result, verifiedUser } = compareMatch(
      {
        given_name: "Erika",
        family_name: "Musterfrau",
        birthdate: "1964-08-13",
        phone_number: "+4915112345679",
      },
      REGISTER,
      "per_field",
    );
    expect(result.matched).toBe(false);
    expect(result.details.family_name).toEqual({
      matched: false,
      submitted_value: "Musterfrau",
      similarity: 60,
    });
    expect(result.details.birthdate?.matched).toBe(false);
    expect(result.details.phone_number?.matched).toBe(false);
    expect(verifiedUser).toEqual({ given_name: "Erika" });
  });

  it("never matches a field the register lacks", () => {
    const { result, verifiedUser } = compareMatch(
      { given_name: "Erika", middle_name: "Maria" },
      { given_name: "Erika" },
      "per_field",
    );
    expect(result.details.middle_name).toEqual({ matched: false, submitted_value: "Maria" });
    expect(result.matched).toBe(false);
    expect(verifiedUser).toEqual({ given_name: "Erika" });
  });

  it("compares addresses as formatted lines or street + postal code (+ locality, country)", () => {
    const address = (value: unknown) =>
      compareMatch({ address: value }, REGISTER, "per_field").result.matched;
    expect(address("Heidestrasse 17, 51147 Koeln")).toBe(true);
    expect(address("Heidestraße 17 51147 Köln DE")).toBe(true);
    expect(address("51147 Köln, Heidestraße 17")).toBe(true);
    expect(address("Heidestraße 71, 51147 Köln")).toBe(false);
    expect(address("Heidestraße 17, 51147 Bonn")).toBe(false);
    expect(address({ street_address: "Heidestraße 71", postal_code: "51147" })).toBe(false);
    expect(
      address({ street_address: "Heide Strasse 17", postal_code: "51147", locality: "KÖLN", country: "de" }),
    ).toBe(true);
    expect(address({ street_address: "Heidestraße 17", postal_code: "51148" })).toBe(false);
    expect(address({ street_address: "Heidestraße 17", country: "AT" })).toBe(false);
    expect(address({ formatted: "Heidestraße 17, 51147 Köln" })).toBe(true);
    expect(
      compareMatch(
        { address: "Heidestraße 17, 51147 Köln" },
        { address: "Heidestrasse 17, 51147 Koln" },
        "per_field",
      ).result.matched,
    ).toBe(true);
  });

  it("compares birthdates exactly", () => {
    expect(
      compareMatch({ birthdate: "1964-08-12" }, { birthdate: "1964-08-12" }, "per_field").result.matched,
    ).toBe(true);
    expect(
      compareMatch({ birthdate: "1964-12-08" }, { birthdate: "1964-08-12" }, "per_field").result.matched,
    ).toBe(false);
  });
});

describe("compareMatch aggregate", () => {
  it("gives only the submitted values and verifies everything when all fields match", () => {
    const submitted = { name: "ERIKA MUSTERMANN", birthdate: "1964-08-12", gender: "female" };
    const { result, verifiedUser } = compareMatch(submitted, REGISTER, "aggregate");
    expect(result).toEqual({
      matched: true,
      granularity: "aggregate",
      submitted_fields: ["name", "birthdate", "gender"],
      details: {
        name: { submitted_value: "ERIKA MUSTERMANN" },
        birthdate: { submitted_value: "1964-08-12" },
        gender: { submitted_value: "female" },
      },
    });
    expect(verifiedUser).toEqual(submitted);
  });

  it("verifies nothing when one field differs", () => {
    const { result, verifiedUser } = compareMatch(
      { name: "Erika Mustermann", birthdate: "1965-08-12" },
      REGISTER,
      "aggregate",
    );
    expect(result.matched).toBe(false);
    expect(result.details).toEqual({
      name: { submitted_value: "Erika Mustermann" },
      birthdate: { submitted_value: "1965-08-12" },
    });
    expect(verifiedUser).toEqual({});
  });

  it("is not matched when nothing was submitted", () => {
    expect(compareMatch({}, REGISTER, "aggregate")).toEqual({
      result: { matched: false, granularity: "aggregate", submitted_fields: [], details: {} },
      verifiedUser: {},
    });
  });

  it("refuses unknown keys and wrongly typed values, naming the field", () => {
    expect(refusal(() => compareMatch({ surname: "X" }, REGISTER, "aggregate"))).toEqual({
      code: "VALIDATION_ERROR",
      path: "matchData.surname",
    });
    expect(refusal(() => compareMatch({ birthdate: 19640812 }, REGISTER, "per_field"))).toEqual({
      code: "VALIDATION_ERROR",
      path: "matchData.birthdate",
    });
  });
});

describe("validateMatchData", () => {
  const bank = provider("bank_data_match");
  const aadhaar = provider("in_aadhaar_match");
  const deEid = provider("de_eid");

  it("accepts the provider's comparable fields and returns a copy", () => {
    const input = {
      given_name: "Max",
      family_name: "Mustermann",
      address: { street_address: "Musterstraße 1", postal_code: "80331" },
    };
    const out = validateMatchData(bank, input);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(
      validateMatchData(aadhaar, {
        name: "Asha Sharma",
        phone_number: "+91 98123 45678",
        email: "a@example.com",
      }),
    ).toBeDefined();
  });

  it("takes none for disclosure providers and requires it for match providers", () => {
    expect(validateMatchData(deEid, undefined)).toBeUndefined();
    expect(refusal(() => validateMatchData(deEid, { given_name: "Erika" }))).toEqual({
      code: "VALIDATION_ERROR",
      path: "matchData",
    });
    expect(refusal(() => validateMatchData(bank, undefined)).path).toBe("matchData");
    expect(refusal(() => validateMatchData(bank, null)).path).toBe("matchData");
  });

  it("refuses a non-object, an empty object and more than 20 fields", () => {
    for (const bad of ["Max", ["Max"], 7, {}])
      expect(refusal(() => validateMatchData(bank, bad)).path).toBe("matchData");
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`given_name${i}`, "x"]));
    expect(refusal(() => validateMatchData(bank, many)).path).toBe("matchData");
  });

  it("refuses fields the provider does not compare, and bad values, naming each", () => {
    const cases: [unknown, string][] = [
      [{ nationality: "DE" }, "matchData.nationality"],
      [{ given_name: "" }, "matchData.given_name"],
      [{ given_name: "   " }, "matchData.given_name"],
      [{ given_name: 42 }, "matchData.given_name"],
      [{ given_name: "x".repeat(257) }, "matchData.given_name"],
      [{ birthdate: "12/08/1964" }, "matchData.birthdate"],
      [{ birthdate: "2023-02-30" }, "matchData.birthdate"],
      [{ address: { street: "Musterstraße 1" } }, "matchData.address.street"],
      [{ address: { postal_code: "80331" } }, "matchData.address"],
      [{ address: { street_address: "" } }, "matchData.address.street_address"],
      [{ address: ["Musterstraße 1"] }, "matchData.address"],
    ];
    for (const [input, path] of cases)
      expect(refusal(() => validateMatchData(bank, input))).toEqual({ code: "VALIDATION_ERROR", path });
    expect(refusal(() => validateMatchData(aadhaar, { phone_number: "call me" })).path).toBe(
      "matchData.phone_number",
    );
    expect(refusal(() => validateMatchData(aadhaar, { email: "not-an-address" })).path).toBe(
      "matchData.email",
    );
    expect(refusal(() => validateMatchData(aadhaar, { given_name: "Asha" })).path).toBe(
      "matchData.given_name",
    );
  });
});
