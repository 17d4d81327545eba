/**
 * The OpenAPI 3.1 document of the REST surface, generated from the endpoint definitions that
 * the route handlers themselves run on (request schemas, auth, idempotency, documented
 * responses). `info.version` is 1.0.0 (spec, Versioning 3).
 * Workspace endpoints accept two credentials (either one): a workspace API key or the console
 * session cookie. Each of them states the permission it needs (lib/auth/roles.ts) in its
 * description — from the definition's `permission`, unless the description already words it
 * (endpoints whose rule is finer than one permission). Unauthenticated endpoints list no security.
 *
 * Client generators must accept it: lib/openapi/generators.test.ts lints it with Redocly CLI (zero
 * errors) and generates TypeScript types from it with openapi-typescript. Hence named components
 * for recursive schemas (below), a description for every tag and `info.license`.
 */
import { z } from "zod";
import { can, ROLES, type TPermission } from "../auth/roles";
import type { EndpointDef } from "../http/endpoint";
import type { TEnvironment } from "../environments";
import { ALL_ENDPOINTS } from "./registry";

type JsonSchema = Record<string, unknown>;
/** `components.schemas`, filled while the operations are built. */
type Components = Record<string, JsonSchema>;

const DEFS_REF = "#/$defs/";
const COMPONENT_REF = "#/components/schemas/";
/** What OpenAPI allows as a component name. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * z.toJSONSchema puts a named schema (`.meta({ id })`, `.register(z.globalRegistry, { id })`) and
 * a recursive one into `$defs` of the schema it converts, referenced as `#/$defs/<id>`. Inside an
 * OpenAPI document such a reference resolves against the document root, where nothing is, so
 * Redocly and openapi-typescript refuse it. The definitions move to `components.schemas` under
 * their id and every reference follows. zod calls an unnamed recursive schema `__schema0`: that is
 * refused here, so a recursive schema gets a name a client can use (see `ZJsonValue`).
 */
function schemaOf(
  schema: z.ZodType,
  io: "input" | "output",
  components: Components,
  where: string,
): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...json
  } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  for (const [name, definition] of Object.entries($defs ?? {})) {
    if (name.startsWith("__schema"))
      throw new Error(
        `${where}: a recursive schema has no name (zod calls it "${name}"); register it with an id, e.g. .register(z.globalRegistry, { id: "JsonValue" })`,
      );
    if (!COMPONENT_NAME.test(name))
      throw new Error(`${where}: the schema id "${name}" is not a component name (letters, digits, . _ -)`);
    const component = withComponentRefs(definition, where);
    const existing = components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(component))
      throw new Error(`${where}: two different schemas are named "${name}"`);
    components[name] = component;
  }
  return withComponentRefs(json, where);
}

/** A copy of `schema` whose `#/$defs/<id>` references point at `#/components/schemas/<id>`. */
function withComponentRefs(schema: object, where: string): JsonSchema {
  const rewrite = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(rewrite)
      : value !== null && typeof value === "object"
        ? withComponentRefs(value, where)
        : value;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]: [string, unknown]) => {
      if (key !== "$ref" || typeof value !== "string" || value.startsWith(COMPONENT_REF))
        return [key, rewrite(value)];
      if (value.startsWith(DEFS_REF)) return [key, COMPONENT_REF + value.slice(DEFS_REF.length)];
      // `#` (a recursive root schema) or any other local pointer would resolve against the document
      throw new Error(`${where}: a reference that leaves the schema ("${value}"); name the recursive schema`);
    }),
  );
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

function queryParameters(def: EndpointDef, components: Components) {
  if (!def.query) return [];
  const json = schemaOf(def.query, "input", components, `${def.operationId} query`) as {
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

function operation(def: EndpointDef, components: Components) {
  const parameters: unknown[] = [...pathParameters(def.path), ...queryParameters(def, components)];
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
      ...(doc.schema
        ? {
            content: {
              "application/json": {
                schema: schemaOf(doc.schema, "output", components, `${def.operationId} response ${status}`),
              },
            },
          }
        : {}),
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
            content: {
              "application/json": {
                schema: schemaOf(def.body, "input", components, `${def.operationId} body`),
              },
            },
          },
        }
      : {}),
    responses,
    security: (SECURITY[def.auth] ?? []).map((scheme) => ({ [scheme]: [] })),
  };
}

/** The error envelope every error response carries. */
const ERROR_SCHEMA: JsonSchema = {
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
};

/** One line per tag, for the readers of generated clients and docs; a tag without one fails the build. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Apps: "The workspace's apps (OIDC clients): create, list, update, delete, rotate the client secret.",
  Workspace: "The workspace of the credentials: read it, rename it.",
  "App API":
    "Called by an app with its clientId and clientSecret: the providers it may use, and the exchange of an authorization code for an ID token.",
  Providers: "Which eID providers an app offers, and the switch that enables or disables each one.",
  Operator:
    "Operator API (operator key or an operator's session): activation review, production-test scheduling, custom-domain and workspace oversight, operator audit trail.",
  Activation: "Ask for an app's providers to be activated in production (reviewed by an operator).",
  "Production tests": "Request a production test of an app's providers, start its sessions, read its report.",
  Workflows:
    "Verification workflows of an app: drafts, versions, the default workflow, validation, templates, node types, test runs and regression cases.",
  Webhooks: "An app's webhook configuration, its signing secret, test events, deliveries and redelivery.",
  "Custom domain":
    "The app's own domain for its hosted pages: configure it, verify its DNS records, remove it.",
  Verifications:
    "Verification sessions. With the app's credentials: start one, read its status, claims and evidence, cancel it (its personal data is deleted). With workspace credentials: list them, read a session's activity, reveal its claims, cancel it.",
  Sandbox: "Sandbox only: test identities, test verifications, and simulated outcomes of a session.",
  Stats: "Verification statistics of the workspace.",
  "Audit log": "Who did what in the workspace.",
  "Request log": "The API requests the workspace made.",
  Invitations: "Read and accept an invitation link (no credentials: the link's token is the proof).",
  Account:
    "The signed-in user: who am I, change the password; self-service sign-up with its email confirmation, and password reset by email.",
  Team: "Members of the workspace, their roles, and pending invitations.",
  "API keys": "The workspace's API keys: create, list, revoke.",
  Meta: "This description of the API.",
};

/**
 * The repository states no licence (package.json is `private`, no `license` field, no LICENSE
 * file), so the API is proprietary: all rights reserved. `identifier` is an SPDX expression
 * (`LicenseRef-…` names a licence SPDX does not list). Change both when a licence is chosen.
 */
const LICENSE = { name: "Proprietary (all rights reserved)", identifier: "LicenseRef-Proprietary" };

function tagObject(name: string) {
  const description = TAG_DESCRIPTIONS[name];
  if (!description) throw new Error(`OpenAPI tag "${name}" has no description in TAG_DESCRIPTIONS`);
  return { name, description };
}

export function buildOpenApiDocument(options: {
  origin: string;
  environment?: TEnvironment;
  /** every endpoint of the REST surface unless a test names others */
  endpoints?: readonly EndpointDef[];
}) {
  const endpoints = options.endpoints ?? ALL_ENDPOINTS;
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Components = { Error: ERROR_SCHEMA };
  for (const def of endpoints) {
    (paths[def.path] ??= {})[def.method.toLowerCase()] = operation(def, components);
  }
  const envs: TEnvironment[] = options.environment ? [options.environment] : ["sandbox", "production"];
  return {
    openapi: "3.1.0",
    info: {
      title: "Identity Verification Service API",
      version: "1.0.0",
      license: LICENSE,
      description:
        "One interface for electronic identity (eID) verification across many providers. Workspace API (Bearer workspace key, or the console session cookie), App API (Basic clientId:clientSecret) and Operator API (Bearer operator key, or an operator's session cookie). Roles: owner, admin, developer, viewer; each workspace endpoint names the permission it needs. Errors use the envelope `{error:{code,message,requestId,details?}}`. Every operation may also answer 405 METHOD_NOT_ALLOWED (with `Allow`) for another method on its path, and 503 SERVICE_UNAVAILABLE (with `Retry-After`) while the database cannot be reached.",
    },
    servers: envs.map((env) => ({ url: `${options.origin}/api/${env}`, description: env })),
    tags: [...new Set(endpoints.map((d) => d.tag))].map(tagObject),
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
      schemas: components,
    },
  };
}
