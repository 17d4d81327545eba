/** Endpoint definitions of the workflow resources and the app verification settings (see lib/http/endpoint.ts). */
import { z } from "zod";
import { ZAppJson } from "../apps/api";
import { endpoint } from "../http/endpoint";
import { ZWorkflowJson } from "./json";
import { ZNodeTypeJson } from "./node-types";
import { ZCreateWorkflow, ZSetDefaultWorkflow, ZUpdateVerificationSettings, ZUpdateWorkflow } from "./schema";

const TAG = "Workflows";

const VALIDATION_NOTE =
  "The workflow is validated as a whole and every problem is listed in `error.details`, each with the path of the field in the request body (`nodes[2].config.claims[1]`) and a message starting with the node's id. " +
  "Rules: node ids unique; types from the node-types catalog; exactly one `request` node, named by `entryNodeId`; `response` nodes have no `next`, `if` nodes have `then`/`else`, every other node has `next`, and every link names a node of the workflow; no cycles; every node reachable from the entry; every path from the entry to a response passes exactly one `verification` node, before any node that tests its result; config fields as the catalog describes them (unknown fields refused); claims are known claim names; provider keys of verification nodes are providers of the app. At most 100 nodes; names 1–100 characters.";

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
      headers: { Location: "URI of the new workflow" },
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
  responses: { 200: { description: "The workflow", schema: ZWorkflowJson } },
});

export const updateWorkflow = endpoint({
  method: "PATCH",
  path: "/v1/apps/{client_id}/workflows/{workflow_id}",
  operationId: "updateWorkflow",
  summary: "Update a workflow",
  description:
    "All fields optional: `name`, `entryNodeId`, `nodes` (replaces all nodes, stored as sent). When `entryNodeId` or `nodes` change, the resulting workflow is validated against the app's current providers. " +
    VALIDATION_NOTE,
  tag: TAG,
  auth: "workspace",
  body: ZUpdateWorkflow,
  responses: { 200: { description: "The updated workflow", schema: ZWorkflowJson } },
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
