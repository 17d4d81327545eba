/** Endpoint definition of the OpenAPI document itself. */
import { z } from "zod";
import { endpoint } from "../http/endpoint";

export const getOpenApiDocument = endpoint({
  method: "GET",
  path: "/v1/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "The OpenAPI 3.1 description of this API",
  tag: "Meta",
  auth: "none",
  responses: { 200: { description: "OpenAPI document", schema: z.looseObject({ openapi: z.string() }) } },
});
