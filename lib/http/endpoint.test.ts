import { describe, expect, expectTypeOf, it } from "vitest";
import { ALL_ENDPOINTS } from "../openapi/registry";
import { pathParamNames, type PathParams } from "./endpoint";

describe("path parameters of an endpoint definition", () => {
  it("names them as the route directories do", () => {
    expect(pathParamNames("/v1/apps/{client_id}/workflows/{workflow_id}/versions/{version}")).toEqual([
      "clientId",
      "workflowId",
      "version",
    ]);
    expect(pathParamNames("/v1/verifications")).toEqual([]);
  });

  it("types the handler's params from the path", () => {
    expectTypeOf<PathParams<"/v1/apps/{client_id}/webhook-deliveries/{delivery_id}">>().toEqualTypeOf<{
      readonly clientId: string;
      readonly deliveryId: string;
    }>();
    expectTypeOf<keyof PathParams<"/v1/apps">>().toEqualTypeOf<never>();
  });

  it("gives every parameter a route directory name that is an identifier", () => {
    for (const def of ALL_ENDPOINTS) {
      for (const name of pathParamNames(def.path)) expect(name, def.operationId).toMatch(/^[a-z][A-Za-z]*$/);
    }
  });
});
