import { publicUrl } from "@/lib/config";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/openapi/endpoints";
import { buildOpenApiDocument } from "@/lib/openapi/document";

export const GET = withApi(endpoints.getOpenApiDocument, async ({ env }) =>
  json(200, buildOpenApiDocument({ origin: publicUrl(), environment: env }), {
    "Cache-Control": "public, max-age=300",
  }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
