/** withApi's route: the module-load checks and the path parameters of a request. */
import { describe, expect, it } from "vitest";
import type { TAppRowRead } from "../../auth/app-credentials";
import type { EndpointDef } from "../endpoint";
import { json } from "./response";
import { pathParams, prepareRoute } from "./route";

const def = (over: Partial<EndpointDef> = {}): EndpointDef => ({
  method: "GET",
  path: "/v1/apps/{client_id}/things/{thing_id}",
  operationId: "getThing",
  summary: "A thing",
  tag: "Things",
  auth: "app",
  responses: { 200: { description: "the thing" } },
  ...over,
});
const handler = async () => json(200, {});
const read = (param: string) => ({ param, statement: {} }) as unknown as TAppRowRead<unknown>;

describe("prepareRoute", () => {
  it("keeps the definition, the path's parameter names and the handler", () => {
    const route = prepareRoute(def(), handler);
    expect(route.paramNames).toEqual(["clientId", "thingId"]);
    expect(route.authWith).toBeUndefined();
    expect(route.handler).toBe(handler);
  });

  it("takes `authWith` on app auth and a parameter the path names", () => {
    const authWith = read("thingId");
    expect(prepareRoute(def(), { authWith }, handler).authWith).toBe(authWith);
  });

  it("refuses, at module load, a route without a handler and a misplaced `authWith`", () => {
    expect(() => prepareRoute(def(), { authWith: read("thingId") })).toThrow(
      "getThing: withApi without a handler",
    );
    expect(() => prepareRoute(def({ auth: "workspace" }), { authWith: read("thingId") }, handler)).toThrow(
      'getThing: authWith needs app auth and the path parameter "thingId"',
    );
    expect(() => prepareRoute(def(), { authWith: read("verificationId") }, handler)).toThrow(
      'authWith needs app auth and the path parameter "verificationId"',
    );
  });
});

describe("pathParams", () => {
  const route = prepareRoute(def(), handler);

  it("keeps the string parameters, drops the others", () => {
    expect(pathParams(route, { env: "sandbox", clientId: "app_1", thingId: "t", slug: ["a", "b"] })).toEqual({
      env: "sandbox",
      clientId: "app_1",
      thingId: "t",
    });
  });

  it("throws (a programming error) when the route directory lacks a parameter the path names", () => {
    expect(() => pathParams(route, { env: "sandbox", clientId: "app_1" })).toThrow(
      'getThing: no path parameter "thingId"',
    );
  });
});
