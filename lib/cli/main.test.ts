/**
 * What a failed `idv` command reports for database failures: pg's errors mapped to codes a script
 * can act on (DATABASE_NOT_MIGRATED, DATABASE_UNAVAILABLE), anything else INTERNAL_ERROR.
 */
import { describe, expect, it } from "vitest";
import { toCliError } from "./main";

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("toCliError", () => {
  it("names a schema behind the code DATABASE_NOT_MIGRATED", () => {
    for (const code of ["42P01", "42703"])
      expect(toCliError(pgError(code, 'relation "apps" does not exist')).code).toBe("DATABASE_NOT_MIGRATED");
  });

  it("names a database it cannot reach, log in to or find DATABASE_UNAVAILABLE", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const cases = [
      refused,
      pgError("28P01", 'password authentication failed for user "idv"'),
      pgError("3D000", 'database "idv" does not exist'),
      new Error("timeout exceeded when trying to connect"),
      pgError("57P03", "the database system is starting up"),
    ];
    expect(cases.map((err) => toCliError(err).code)).toEqual(
      Array(cases.length).fill("DATABASE_UNAVAILABLE"),
    );
  });

  it("leaves other failures INTERNAL_ERROR", () => {
    expect(toCliError(pgError("23505", "duplicate key value")).code).toBe("INTERNAL_ERROR");
    expect(toCliError(new Error("boom")).code).toBe("INTERNAL_ERROR");
  });
});
