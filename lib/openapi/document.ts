/**
 * The OpenAPI 3.1 document of the REST surface, generated from the endpoint definitions that
 * the route handlers themselves run on (request schemas, auth, idempotency, documented
 * responses). `info.version` is 1.0.0 (spec, Versioning 3).
 */
import { z } from "zod";
import type { EndpointDef } from "../http/endpoint";
import type { TEnvironment } from "../environments";
import { ALL_ENDPOINTS } from "./endpoints";

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request: `error.code` says why (VALIDATION_ERROR, VALIDATION_INVALID_PARAMETER, INVALID_JSON, …) and `error.details` names each offending field",
  401: "Missing or invalid credentials",
  403: "RESOURCE_FORBIDDEN: the API key's workspace does not own the app",
  404: "RESOURCE_NOT_FOUND",
  409: "Conflict: IDEMPOTENCY_KEY_CONFLICT, IDEMPOTENCY_KEY_IN_USE, or a state that does not allow the operation",
  413: "PAYLOAD_TOO_LARGE: the body exceeds 1 MB",
  415: "UNSUPPORTED_MEDIA_TYPE: the body is not JSON",
};

const SECURITY: Record<string, string | undefined> = {
  workspace: "workspaceKey",
  app: "appCredentials",
  operator: "operatorKey",
  none: undefined,
};

function errorStatuses(def: EndpointDef): number[] {
  const statuses = new Set<number>(def.errors ?? []);
  if (def.auth !== "none") statuses.add(401);
  if (def.path.includes("{client_id}") && def.auth === "workspace") {
    statuses.add(403);
    statuses.add(404);
  }
  if (/\{[a-z_]+\}/.test(def.path)) statuses.add(404);
  if (def.body || def.query) statuses.add(400);
  if (def.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (def.idempotent) {
    statuses.add(400);
    statuses.add(409);
  }
  return [...statuses].sort();
}

function queryParameters(def: EndpointDef) {
  if (!def.query) return [];
  const json = schemaOf(def.query, "input") as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema,
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
  }));
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => ({
    name: m[1]!,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

function operation(def: EndpointDef) {
  const parameters: unknown[] = [...pathParameters(def.path), ...queryParameters(def)];
  if (def.idempotent) {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "1–255 characters, scoped to the workspace and environment, kept 24 h. A replay with the same body returns the original response with `Idempotency-Replayed: true`; another body → 409 IDEMPOTENCY_KEY_CONFLICT.",
      schema: { type: "string", maxLength: 255 },
    });
  }
  const responses: Record<string, unknown> = {};
  for (const [status, doc] of Object.entries(def.responses)) {
    responses[status] = {
      description: doc.description,
      ...(doc.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(doc.headers).map(([h, d]) => [
                h,
                { description: d, schema: { type: "string" } },
              ]),
            ),
          }
        : {}),
      ...(doc.schema ? { content: { "application/json": { schema: schemaOf(doc.schema, "output") } } } : {}),
    };
  }
  for (const status of errorStatuses(def)) {
    responses[String(status)] ??= {
      description: ERROR_DESCRIPTIONS[status] ?? "Error",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const security = SECURITY[def.auth];
  return {
    operationId: def.operationId,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: [def.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(def.body
      ? {
          requestBody: {
            required: false,
            content: { "application/json": { schema: schemaOf(def.body, "input") } },
          },
        }
      : {}),
    responses,
    security: security ? [{ [security]: [] }] : [],
  };
}

export function buildOpenApiDocument(options: { origin: string; environment?: TEnvironment }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of ALL_ENDPOINTS) {
    (paths[def.path] ??= {})[def.method.toLowerCase()] = operation(def);
  }
  const envs: TEnvironment[] = options.environment ? [options.environment] : ["sandbox", "production"];
  return {
    openapi: "3.1.0",
    info: {
      title: "Identity Verification Service API",
      version: "1.0.0",
      description:
        "One interface for electronic identity (eID) verification across many providers. Workspace API (Bearer workspace key), App API (Basic clientId:clientSecret) and Operator API (Bearer operator key). Errors use the envelope `{error:{code,message,requestId,details?}}`.",
    },
    servers: envs.map((env) => ({ url: `${options.origin}/api/${env}`, description: env })),
    tags: [...new Set(ALL_ENDPOINTS.map((d) => d.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        workspaceKey: {
          type: "http",
          scheme: "bearer",
          description: "Workspace API key: sk_workspace_test_… (sandbox) or sk_workspace_prod_… (production)",
        },
        appCredentials: { type: "http", scheme: "basic", description: "The app's clientId and clientSecret" },
        operatorKey: { type: "http", scheme: "bearer", description: "Operator key: sk_operator_…" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message", "requestId"],
              properties: {
                code: { type: "string", description: "UPPER_SNAKE error code" },
                message: { type: "string" },
                requestId: { type: "string", description: "req_… also sent as X-Request-Id" },
                details: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["path", "message"],
                    properties: { path: { type: "string" }, message: { type: "string" } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
