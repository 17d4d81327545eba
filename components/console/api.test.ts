import { describe, expect, it } from "vitest";
import { ApiRequestError, formErrorMessage } from "./api";

describe("formErrorMessage", () => {
  const invalidName = new ApiRequestError(
    400,
    "VALIDATION_FAILED",
    "The request is invalid",
    [{ path: "name", message: "Too long" }],
    "req_1",
  );

  it("is nothing while there is no error", () => {
    expect(formErrorMessage(null)).toBeNull();
    expect(formErrorMessage(undefined, "name")).toBeNull();
  });

  it("leaves an error to the field that shows it", () => {
    expect(formErrorMessage(invalidName, "name")).toBeNull();
    expect(formErrorMessage(invalidName, "email", "name")).toBeNull();
  });

  it("shows the error, with its request id, when no listed field shows it", () => {
    expect(formErrorMessage(invalidName)).toBe("The request is invalid (request req_1)");
    expect(formErrorMessage(invalidName, "email")).toBe("The request is invalid (request req_1)");
    expect(formErrorMessage(new Error("offline"), "name")).toBe("offline");
  });
});
