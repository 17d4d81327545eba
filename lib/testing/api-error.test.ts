import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { apiErrorOf } from "./api-error";

describe("apiErrorOf", () => {
  it("returns the ApiError the function throws", () => {
    const error = new ApiError("VALIDATION_ERROR", "bad");
    expect(
      apiErrorOf(() => {
        throw error;
      }),
    ).toBe(error);
  });

  it("throws any other error on, and fails when nothing is thrown", () => {
    expect(() =>
      apiErrorOf(() => {
        throw new TypeError("not ours");
      }),
    ).toThrow(TypeError);
    expect(() => apiErrorOf(() => 1)).toThrow("expected an ApiError");
  });
});
