/** Endpoint definitions of the workflow resources and the app verification settings (see lib/http/endpoint.ts). */
import { z } from "zod";
import { ZAppJson } from "../apps/endpoints";
import { endpoint } from "../http/endpoint";
import { pageOf, paginationFields } from "../http/pagination";
import { ZNodePositionsJson, ZWorkflowJson, ZWorkflowNodeJson } from "./json";
import { ZNodeTypeJson } from "./node-types";
import {
  ZCreateWorkflow,
  ZSetDefaultWorkflow,
  ZUpdateVerificationSettings,
  ZUpdateWorkflow,
  ZValidateWorkflow,
} from "./schema";
import { VERSION_AUTHOR_TYPES } from "./versioning";

const TAG = "Workflows";

const VALIDATION_NOTE =
  "The workflow is validated as a whole and every problem is listed in `error.details`, each with the path of the field in the request body (`nodes[2].config.claims[1]`) and a message starting with the node's id. " +
  "Rules: node ids unique; types from the node-types catalog; exactly one `request` node, named by `entryNodeId`; `response` nodes have no `next`, `if` nodes have `then`/`else`, every other node has `next`, and every link names a node of the workflow; no cycles; every node reachable from the entry; every path from the entry to a response passes exactly one `verification` node, before any node that tests its result; config fields as the catalog describes them (unknown fields refused); claims are known claim names; provider keys of verification nodes are providers of the app; `positions` keys are node ids of the workflow (`positions.<id>`). At most 200 nodes; names 1–100 characters. " +
  "A detail whose path points into a node also carries that node's id as `nodeId`.";

const ETAG_HEADER = { ETag: 'The workflow\'s current version as a strong entity tag: `"3"`' };

const IF_MATCH_NOTE =
  'Optional `If-Match: "<version>"` (the ETag of the workflow as last read): when it is not the current version the request changes nothing and answers 412 WORKFLOW_VERSION_CONFLICT, naming the current version (details path `If-Match`). Without it the change applies to whatever is current.';

export const listNodeTypes = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/workflows/node-types",
  operationId: "listWorkflowNodeTypes",
  summary: "List workflow node types",
  description:
    "The catalog of node types a workflow can use, with the links each has (`outputs`) and its config fields (name, type, required, description, enumValues for enum fields, nested fields for objects).",
  tag: TAG,
  auth: "workspace",
  responses: { 200: { description: "Node type definitions", schema: z.array(ZNodeTypeJson) } },
});

export const listWorkflows = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/workflows",
  operationId: "listWorkflows",
  summary: "List an app's workflows",
  description:
    "Oldest first; the app's `defaultWorkflowId` names the one verifications use unless they select another.",
  tag: TAG,
  auth: "workspace",
  responses: { 200: { description: "The app's workflows", schema: z.array(ZWorkflowJson) } },
});

export const createWorkflow = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/workflows",
  operationId: "createWorkflow",
  summary: "Create a workflow",
  description:
    "Adds a workflow to the app; the default workflow stays as it is (set it with PUT /v1/apps/{client_id}/default-workflow). " +
    "Verification nodes get `branding.useAppBranding: true` unless it is given. Honours `Idempotency-Key`. " +
    VALIDATION_NOTE,
  tag: TAG,
  auth: "workspace",
  body: ZCreateWorkflow,
  idempotent: true,
  responses: {
    201: {
      description: "The new workflow",
      schema: ZWorkflowJson,
      headers: { Location: "URI of the new workflow", ...ETAG_HEADER },
    },
  },
  errors: [409],
});

export const getWorkflow = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}",
  operationId: "getWorkflow",
  summary: "Get a workflow",
  description: "404 when the id is not a workflow of this app.",
  tag: TAG,
  auth: "workspace",
  responses: { 200: { description: "The workflow", schema: ZWorkflowJson, headers: ETAG_HEADER } },
});

export const updateWorkflow = endpoint({
  method: "PATCH",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}",
  operationId: "updateWorkflow",
  summary: "Update a workflow",
  description:
    "All fields optional: `name`, `entryNodeId`, `nodes` (replaces all nodes, stored as sent), `positions` (replaces all positions). When `entryNodeId` or `nodes` change, the resulting workflow is validated against the app's current providers. " +
    "A change of the content saves a new version (`version` + 1, listed by GET …/versions); a request that changes nothing saves none. " +
    IF_MATCH_NOTE +
    " " +
    VALIDATION_NOTE,
  tag: TAG,
  auth: "workspace",
  body: ZUpdateWorkflow,
  responses: { 200: { description: "The updated workflow", schema: ZWorkflowJson, headers: ETAG_HEADER } },
  errors: [412],
});

export const ZWorkflowValidationJson = z.object({
  valid: z.boolean().describe("true when `details` is empty"),
  details: z.array(
    z.object({
      path: z.string().describe("Path of the field in the request body: `nodes[2].config.claims[0]`"),
      message: z.string(),
      nodeId: z.string().optional().describe("Id of the node the path points into"),
    }),
  ),
});

export const validateWorkflow = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/workflows/validate",
  operationId: "validateWorkflow",
  summary: "Validate a workflow draft",
  description:
    "A dry run of create: the body of POST …/workflows (`name` optional) is checked with the same rules and messages against the app's current providers, and nothing is stored. Findings come back as `details` with status 200; a body that is not shaped like a workflow (wrong types, unknown fields, over 200 nodes) is a 400 as on create. " +
    VALIDATION_NOTE,
  tag: TAG,
  auth: "workspace",
  // a dry run changes nothing: every role that can read the workflow can check a draft
  permission: "read",
  transaction: false,
  body: ZValidateWorkflow,
  responses: { 200: { description: "The findings", schema: ZWorkflowValidationJson } },
});

const ZVersionAuthorJson = z
  .object({
    type: z.enum(VERSION_AUTHOR_TYPES).describe("system: written by a migration"),
    id: z.string().nullable().describe("usr_… or key_…; null for system"),
    display: z
      .string()
      .nullable()
      .describe("A user's email or an API key's name, as the audit log shows them"),
  })
  .describe("Who saved the version");

export const ZWorkflowVersionSummaryJson = z.object({
  version: z.number().int().min(1),
  name: z.string(),
  nodeCount: z.number().int(),
  createdAt: z.string().describe("ISO 8601 date-time"),
  author: ZVersionAuthorJson,
  restoredFrom: z.number().int().nullable().describe("The version this one restored, if it was a restore"),
});

export const ZWorkflowVersionJson = z.object({
  version: z.number().int().min(1),
  name: z.string(),
  entryNodeId: z.string(),
  nodes: z.array(ZWorkflowNodeJson),
  positions: ZNodePositionsJson,
  createdAt: z.string().describe("ISO 8601 date-time"),
  author: ZVersionAuthorJson,
  restoredFrom: z.number().int().nullable(),
});

export const ZListWorkflowVersionsQuery = z.object({ ...paginationFields(20) });
export type TListWorkflowVersionsQuery = z.infer<typeof ZListWorkflowVersionsQuery>;

export const listWorkflowVersions = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}/versions",
  operationId: "listWorkflowVersions",
  summary: "List a workflow's versions",
  description:
    "Newest first. Versions are immutable: version 1 is the workflow as created, and every accepted change (PATCH of the workflow, a restore, PATCH …/verification on the default workflow) adds the next one.",
  tag: TAG,
  auth: "workspace",
  query: ZListWorkflowVersionsQuery,
  responses: {
    200: {
      description: "A page of versions",
      schema: pageOf(ZWorkflowVersionSummaryJson),
    },
  },
});

export const getWorkflowVersion = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}/versions/{version}",
  operationId: "getWorkflowVersion",
  summary: "Get one version of a workflow",
  description: "The content saved as that version. 404 for a version the workflow does not have.",
  tag: TAG,
  auth: "workspace",
  responses: { 200: { description: "The version", schema: ZWorkflowVersionJson } },
});

export const restoreWorkflowVersion = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}/versions/{version}/restore",
  operationId: "restoreWorkflowVersion",
  summary: "Restore a version of a workflow",
  description:
    "Saves the content of that version (name, entryNodeId, nodes, positions) as the newest version; older versions stay as they are. The content is validated against the app's current providers (400 as on PATCH). " +
    IF_MATCH_NOTE,
  tag: TAG,
  auth: "workspace",
  responses: {
    200: { description: "The workflow as restored", schema: ZWorkflowJson, headers: ETAG_HEADER },
  },
  errors: [400, 412],
});

/** The templates of templates.ts, in the order the listing gives them. */
export const TEMPLATE_IDS = [
  "full_identity",
  "age_over_18",
  "high_assurance",
  "match_known_customer",
] as const;

export const ZWorkflowTemplateJson = z.object({
  id: z.enum(TEMPLATE_IDS),
  name: z.string(),
  description: z.string(),
  requiredProviders: z.array(z.string()).describe("Providers the template's verification node names"),
  missingProviders: z
    .array(z.string())
    .describe("Required providers that are not activated and enabled for this app"),
  workflow: z
    .object({
      name: z.string(),
      entryNodeId: z.string(),
      nodes: z.array(ZWorkflowNodeJson),
      positions: ZNodePositionsJson,
    })
    .describe("A body for POST …/workflows"),
});

export const listWorkflowTemplates = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/workflows/templates",
  operationId: "listWorkflowTemplates",
  summary: "List workflow templates",
  description:
    "Ready-made workflows (full_identity, age_over_18, high_assurance, match_known_customer). Each is valid for an app that has its `requiredProviders`; create one with POST …/workflows and its `workflow`.",
  tag: TAG,
  auth: "workspace",
  responses: { 200: { description: "The templates", schema: z.array(ZWorkflowTemplateJson) } },
});

export const deleteWorkflow = endpoint({
  method: "DELETE",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}",
  operationId: "deleteWorkflow",
  summary: "Delete a workflow",
  description:
    "The app's default workflow cannot be deleted: 400 DEFAULT_WORKFLOW_DELETE (set another default first).",
  tag: TAG,
  auth: "workspace",
  responses: { 200: { description: "Deleted", schema: z.object({ deleted: z.boolean() }) } },
  errors: [400],
});

export const setDefaultWorkflow = endpoint({
  method: "PUT",
  path: "/v1/apps/{client_id}/default-workflow",
  operationId: "setDefaultWorkflow",
  summary: "Set the app's default workflow",
  description:
    'Body `{"workflowId": "wf_…"}`, a workflow of this app (404 otherwise, naming `workflowId`). Returns the app.',
  tag: TAG,
  auth: "workspace",
  body: ZSetDefaultWorkflow,
  responses: { 200: { description: "The app with its new defaultWorkflowId", schema: ZAppJson } },
});

export const ZVerificationSettingsJson = z.object({
  verification_type: z
    .enum(["identity", "age_verification"])
    .describe("age_verification when the default workflow's verification node is in that mode"),
  request_attributes: z
    .array(z.string())
    .describe("The claims the default workflow's verification node requests"),
  minimum_age: z.number().int().nullable().describe("The age checked in age_verification; null for identity"),
  branding: z
    .object({
      useAppBranding: z.boolean().describe("The hosted pages show the app's name and logo"),
      name: z.string().nullable().describe("The name shown instead when useAppBranding is false"),
      logo: z.string().nullable().describe("The logo (image data URL) shown instead"),
    })
    .describe("What the hosted verification pages show"),
  providers: z.array(
    z.object({
      provider_id: z.string(),
      enabled: z
        .boolean()
        .describe("The app has the provider enabled and the verification node does not opt it out"),
      provider_specific_attributes: z
        .array(z.string())
        .describe("Claims the provider can return beyond the OpenID Connect standard claims"),
    }),
  ),
});

export const getVerificationSettings = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/verification",
  operationId: "getAppVerificationSettings",
  summary: "Get the app's verification settings",
  description:
    "Derived from the default workflow's first verification node (breadth-first from the entry) and the app's providers (one entry per provider added to the app, by id).",
  tag: TAG,
  auth: "workspace",
  responses: { 200: { description: "App verification settings", schema: ZVerificationSettingsJson } },
});

export const updateVerificationSettings = endpoint({
  method: "PATCH",
  path: "/v1/apps/{client_id}/verification",
  operationId: "updateAppVerificationSettings",
  summary: "Change the app's verification settings",
  description:
    "Writes into the default workflow's first verification node (the one the settings are read from): `verification_type` (identity or age_verification), `minimum_age` (age_verification only; required there), `request_attributes` (claim names, at least one) and `branding` (`useAppBranding`, `name`, `logo` as an image data URL; null removes a value). Omitted fields stay. Validated like any workflow change; errors name these fields. A default workflow without a verification node is 400. Returns the settings.",
  tag: TAG,
  auth: "workspace",
  body: ZUpdateVerificationSettings,
  responses: { 200: { description: "The updated settings", schema: ZVerificationSettingsJson } },
});
