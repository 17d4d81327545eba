/**
 * The OpenAPI 3.1 document of the REST surface, generated from the endpoint definitions that
 * the route handlers themselves run on (request schemas, auth, idempotency, documented
 * responses). `info.version` is 1.0.0 (spec, Versioning 3).
 * Workspace endpoints accept two credentials (either one): a workspace API key or the console
 * session cookie. Each of them states the permission it needs (lib/auth/roles.ts) in its
 * description — from the definition's `permission`, unless the description already words it
 * (endpoints whose rule is finer than one permission). Unauthenticated endpoints list no security.
 */
import { z } from "zod";
import { can, ROLES, type TPermission } from "../auth/roles";
import type { EndpointDef } from "../http/endpoint";
import type { TEnvironment } from "../environments";
import { ALL_ENDPOINTS } from "./registry";

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request: `error.code` says why (VALIDATION_ERROR, VALIDATION_INVALID_PARAMETER, INVALID_JSON, JSON_TOO_COMPLEX — nested deeper than 32 levels or more than 20,000 values —, …) and `error.details` names each offending field",
  401: "Missing or invalid credentials",
  403: "RESOURCE_FORBIDDEN: the caller's role lacks the permission, or another workspace owns the record; CSRF_ORIGIN_MISMATCH: a console-session write without a same-origin Origin header",
  404: "RESOURCE_NOT_FOUND",
  409: "Conflict: IDEMPOTENCY_KEY_CONFLICT, IDEMPOTENCY_KEY_IN_USE, or a state that does not allow the operation",
  413: "PAYLOAD_TOO_LARGE: the body exceeds 1 MB",
  415: "UNSUPPORTED_MEDIA_TYPE: the body is not JSON",
  410: "Gone: the record can no longer be used (`error.code` says which, e.g. INVITATION_INVALID)",
  412: "WORKFLOW_VERSION_CONFLICT: `If-Match` names a version that is no longer the latest; `error.message` names the current one",
  429: "RATE_LIMITED: too many attempts; `Retry-After` gives the seconds to wait",
};

/** Security requirements per auth kind: alternatives, any one of them suffices. */
const SECURITY: Record<string, string[]> = {
  workspace: ["workspaceKey", "consoleSession"],
  app: ["appCredentials"],
  operator: ["operatorKey", "operatorSession"],
  none: [],
};

function rolesWith(permission: TPermission): string {
  const everywhere = ROLES.filter((r) => can(r, permission, "sandbox") && can(r, permission, "production"));
  const sandboxOnly = ROLES.filter((r) => can(r, permission, "sandbox") && !can(r, permission, "production"));
  return [...everywhere, ...sandboxOnly.map((r) => `${r} in sandbox only`)].join(", ");
}

/** "Permission `x`: roles…" for workspace endpoints whose description does not state it already. */
function permissionNote(def: EndpointDef): string | undefined {
  if (def.auth !== "workspace" || def.description?.includes("Permission `")) return undefined;
  const permission = def.permission ?? (def.method === "GET" ? "read" : "write");
  return `Permission \`${permission}\`: ${rolesWith(permission)}; API keys act as admin in their environment.`;
}

function errorStatuses(def: EndpointDef): number[] {
  const statuses = new Set<number>(def.errors ?? []);
  if (def.auth !== "none") statuses.add(401);
  // a role without the permission, a session outside the workspace, a cross-site write
  if (def.auth === "workspace" || def.auth === "operator") statuses.add(403);
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
  const description = [def.description, permissionNote(def)].filter(Boolean).join("\n\n");
  return {
    operationId: def.operationId,
    summary: def.summary,
    ...(description ? { description } : {}),
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
    security: (SECURITY[def.auth] ?? []).map((scheme) => ({ [scheme]: [] })),
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
        "One interface for electronic identity (eID) verification across many providers. Workspace API (Bearer workspace key, or the console session cookie), App API (Basic clientId:clientSecret) and Operator API (Bearer operator key, or an operator's session cookie). Roles: owner, admin, developer, viewer; each workspace endpoint names the permission it needs. Errors use the envelope `{error:{code,message,requestId,details?}}`. Every operation may also answer 405 METHOD_NOT_ALLOWED (with `Allow`) for another method on its path, and 503 SERVICE_UNAVAILABLE (with `Retry-After`) while the database cannot be reached.",
    },
    servers: envs.map((env) => ({ url: `${options.origin}/api/${env}`, description: env })),
    tags: [...new Set(ALL_ENDPOINTS.map((d) => d.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        workspaceKey: {
          type: "http",
          scheme: "bearer",
          description:
            "Workspace API key: sk_workspace_test_… (sandbox) or sk_workspace_prod_… (production). Acts as `admin` within its own environment.",
        },
        consoleSession: {
          type: "apiKey",
          in: "cookie",
          name: "idv.session",
          description:
            "The console's session cookie (`__Secure-idv.session` when the service runs on https), set by signing in to the console; HttpOnly, SameSite=Lax, 12 hours. It acts with the member's role in the workspace named by the `X-Workspace-Id` header (else the user's oldest membership) and in the environment of the URL. When an Authorization header is present, the API key is used instead. Writes (every method but GET and HEAD) need an `Origin` header of this service, else 403 CSRF_ORIGIN_MISMATCH. A password change ends every session (401 INVALID_SESSION).",
        },
        appCredentials: { type: "http", scheme: "basic", description: "The app's clientId and clientSecret" },
        operatorKey: { type: "http", scheme: "bearer", description: "Operator key: sk_operator_…" },
        operatorSession: {
          type: "apiKey",
          in: "cookie",
          name: "idv.session",
          description:
            "An operator's session cookie, set by signing in to the back-office (the console's sign-in page) as a user with the operator flag; it ends 2 hours after sign-in. When an Authorization header is present, the operator key is used instead. A session of a user who is not an operator is 403 RESOURCE_FORBIDDEN. Writes need an `Origin` header of this service, else 403 CSRF_ORIGIN_MISMATCH.",
        },
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
                    properties: {
                      path: { type: "string" },
                      message: { type: "string" },
                      nodeId: {
                        type: "string",
                        description: "Workflow validation: id of the node the path points into",
                      },
                    },
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
