import { describe, expect, it } from "vitest";
import { findProvider } from "../catalog";
import { profileContext } from "./native-context";
import {
  addressClaim,
  addressOf,
  alpha3,
  dateParts,
  estonianPersonalCode,
  finnishHetu,
  icaoState,
  mrzName,
  spanishDni,
  splitStreet,
  swedishPersonalNumber,
} from "./native-formats";

const ctx = (sex?: "female" | "male") =>
  profileContext({
    provider: findProvider("passport")!,
    claims: {},
    loa: 3,
    seed: "seed",
    ...(sex ? { sex } : {}),
  });

describe("addressClaim", () => {
  it("keeps the string members of an address", () => {
    expect(
      addressClaim({ street_address: "Main St 1", locality: "Wien", country: "AT", extra: "x" }),
    ).toEqual({
      street_address: "Main St 1",
      locality: "Wien",
      country: "AT",
    });
  });

  it("treats members of another type and values that are no object as absent", () => {
    expect(addressClaim({ postal_code: 1010, locality: null })).toEqual({});
    expect(addressClaim("Main St 1")).toEqual({});
    expect(addressClaim(null)).toEqual({});
  });

  it("addressOf: undefined without an address object", () => {
    expect(addressOf({})).toBeUndefined();
    expect(addressOf({ address: "Main St 1" })).toBeUndefined();
    expect(addressOf({ address: { formatted: "Main St 1" } })).toEqual({ formatted: "Main St 1" });
  });
});

describe("value formats", () => {
  it("dateParts splits an ISO date", () => {
    expect(dateParts("1990-04-01")).toEqual({ year: "1990", month: "04", day: "01" });
  });

  it("country codes and MRZ names", () => {
    expect(alpha3("de")).toBe("DEU");
    expect(icaoState("DE")).toBe("D");
    expect(icaoState("at")).toBe("AUT");
    expect(mrzName("Müller-Lüdenscheidt")).toBe("MULLER<LUDENSCHEIDT");
  });

  it("splitStreet finds the house number before or after the name", () => {
    expect(splitStreet("Stephansplatz 3")).toEqual({ name: "Stephansplatz", number: "3" });
    expect(splitStreet("10 Downing Street")).toEqual({ name: "Downing Street", number: "10" });
    expect(splitStreet("Am Hof")).toEqual({ name: "Am Hof" });
  });
});

describe("national identity numbers carry valid check digits", () => {
  it("Swedish personnummer: Luhn over YYMMDD + serial, odd third serial digit for men", () => {
    for (const sex of ["female", "male"] as const) {
      const n = swedishPersonalNumber("1985-07-23", ctx(sex));
      expect(n).toMatch(/^19850723\d{4}$/);
      const luhn = [...n.slice(2)].reverse().reduce((s, d, i) => {
        const x = Number(d) * (i % 2 === 1 ? 2 : 1);
        return s + (x > 9 ? x - 9 : x);
      }, 0);
      expect(luhn % 10).toBe(0);
      expect(Number(n[10]) % 2).toBe(sex === "male" ? 1 : 0);
    }
  });

  it("Finnish henkilötunnus: century sign and mod-31 check character", () => {
    const hetu = finnishHetu("2001-02-03", ctx("female"));
    expect(hetu).toMatch(/^030201A\d{3}[0-9A-Y]$/);
    const check = "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(hetu.slice(0, 6) + hetu.slice(7, 10)) % 31];
    expect(hetu[10]).toBe(check);
    expect(Number(hetu.slice(7, 10)) % 2).toBe(0);
    expect(finnishHetu("1970-01-01", ctx("male"))[6]).toBe("-");
  });

  it("Estonian isikukood: century/sex digit and weighted check digit", () => {
    const code = estonianPersonalCode("1980-12-31", ctx("male"));
    expect(code).toMatch(/^3801231\d{4}$/);
    const weigh = (w: number[]) => [...code.slice(0, 10)].reduce((s, d, i) => s + Number(d) * w[i]!, 0) % 11;
    const first = weigh([1, 2, 3, 4, 5, 6, 7, 8, 9, 1]);
    expect(Number(code[10])).toBe(first === 10 ? weigh([3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 10 : first);
    expect(estonianPersonalCode("2004-05-06", ctx("female"))[0]).toBe("6");
  });

  it("Spanish DNI: mod-23 control letter", () => {
    const dni = spanishDni(ctx());
    expect(dni).toMatch(/^\d{8}[A-Z]$/);
    expect(dni[8]).toBe("TRWAGMYFPDXBNJZSQVHLCKE"[Number(dni.slice(0, 8)) % 23]);
  });
});
