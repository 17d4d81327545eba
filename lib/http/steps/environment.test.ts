/** withApi's environment step: the path's `{env}` and sandbox-only routes. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../errors";
import type { EndpointDef } from "../endpoint";
import { environmentOf, refuseOutsideSandbox } from "./environment";

describe("environmentOf", () => {
  it("is the environment the path names", () => {
    expect(environmentOf("sandbox")).toBe("sandbox");
    expect(environmentOf("production")).toBe("production");
  });

  it("is 404 ROUTE_NOT_FOUND for any other word, naming it", () => {
    for (const raw of ["test", "Sandbox", "", undefined]) {
      let thrown: unknown;
      try {
        environmentOf(raw);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect(thrown).toMatchObject({
        code: "ROUTE_NOT_FOUND",
        status: 404,
        message: `No such environment "${raw}". Use sandbox or production`,
      });
    }
  });
});

describe("refuseOutsideSandbox", () => {
  const url = new URL("http://localhost/api/production/v1/apps/app_1/test-verifications");
  const helper = { sandboxOnly: true } as EndpointDef;

  it("lets a sandbox-only route run in the sandbox, and every other route anywhere", () => {
    expect(() => refuseOutsideSandbox(helper, "sandbox", "POST", url)).not.toThrow();
    expect(() => refuseOutsideSandbox({} as EndpointDef, "production", "POST", url)).not.toThrow();
  });

  it("answers a sandbox-only route in production as a path no route serves", () => {
    expect(() => refuseOutsideSandbox(helper, "production", "POST", url)).toThrow(
      expect.objectContaining({
        code: "ROUTE_NOT_FOUND",
        message: "No route for POST /api/production/v1/apps/app_1/test-verifications",
      }),
    );
  });
});
