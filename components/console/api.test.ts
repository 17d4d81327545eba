import { describe, expect, it } from "vitest";
import {
  ApiRequestError,
  formErrorMessage,
  personMessage,
  ROLE_FORBIDS_MESSAGE,
  SESSION_ENDED_MESSAGE,
} from "./api";

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

describe("personMessage: no API-client wording for a person signed in to the console", () => {
  it("words every 'no credential' 401 as the session having ended", () => {
    for (const [code, message] of [
      ["INVALID_API_KEY", "Missing Authorization header. Use Bearer authentication with a workspace API key"],
      ["INVALID_API_KEY", "Invalid API key"],
      ["INVALID_AUTHORIZATION_SCHEME", "Invalid authorization scheme"],
      ["INVALID_SESSION", "Your console session has ended. Sign in again"],
      ["INVALID_OPERATOR_KEY", "A valid operator key is required (Authorization: Bearer sk_operator_…)"],
    ] as const) {
      expect(personMessage(401, code, message)).toBe(SESSION_ENDED_MESSAGE);
    }
  });

  it("words a 403 about keys as the role, and keeps a 403 already worded for a person", () => {
    expect(personMessage(403, "RESOURCE_FORBIDDEN", "The API key lacks the permission write")).toBe(
      ROLE_FORBIDS_MESSAGE,
    );
    expect(personMessage(403, "RESOURCE_FORBIDDEN", "Your role (viewer) may not make changes")).toBe(
      "Your role (viewer) may not make changes",
    );
    expect(personMessage(403, "CSRF_ORIGIN_MISMATCH", "Origin header is missing")).not.toMatch(
      /Origin header/,
    );
  });

  it("leaves every other message as the API wrote it", () => {
    expect(personMessage(400, "VALIDATION_ERROR", "name: must not be empty")).toBe("name: must not be empty");
    expect(personMessage(409, "LAST_OWNER", "The last owner cannot leave")).toBe(
      "The last owner cannot leave",
    );
    expect(personMessage(400, "X", "Send the API key as Bearer")).not.toMatch(/API key/);
  });
});
